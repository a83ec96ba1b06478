#!/usr/bin/env python3
"""GPU checks of `cucheck run`'s attribution of asynchronous errors (tests/gpu/attribution/).
Builds the programs of expected.txt, runs each natively and under `cucheck --format json
--output FILE run`, and judges each run (tests/gpu/verdict.py): cucheck exits with the
program's native status, collected a process report, the report parses, run's note counts the
launches it tracked, and the findings are exactly the program's rows (kind, kernel, the launch's
host frame; any other error or warning fails), plus how exact the attribution is (the checks
column: exact, candidates, graph, graph-node, rerun, same-output; p:CHECK with --progress,
o:CHECK with --rerun-off). PyTorch scripts are SKIPPED (not passed) without torch with CUDA.
Also: `cucheck run` under another tools API client (compute-sanitizer) prints one clear line and
the program still runs. Without a GPU: prints SKIPPED and exits 77.
usage: run_attribution.py --cucheck BIN [--build-dir DIR] [--progress | --rerun-off]
"""
import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import expectations  # noqa: E402
import verdict  # noqa: E402
from run_gpu_tests import (build, find_tool, gencode_flags, gpu_present, program_cmd, run,  # noqa: E402
                           run_timed, torch_with_cuda)


def roles(finding):
    return [r.get("role") for r in finding.get("related", []) if isinstance(r, dict)]


def related_kernels(finding, role):
    out = []
    for r in finding.get("related", []):
        if isinstance(r, dict) and r.get("role") == role:
            out.append(json.dumps(r))
    return out


EXACTNESS = ("exact", "graph-node", "candidates", "graph", "rerun")
RERUN_NOTE = "running the program a second time"
RERUN_TEXT = "named by a second run"


def row_checks(row, mode):
    """The row's checks for this run mode (None, "progress" or "once"): with --progress on a
    "p:CHECK" token, with --rerun off an "o:CHECK" token, replaces the exactness checks (and
    rerun) of the default run."""
    plain = [c for c in row["checks"] if c[:2] not in ("p:", "o:")]
    prefix = {"progress": "p:", "once": "o:"}.get(mode)
    if prefix is None:
        return plain
    over = [c[2:] for c in row["checks"] if c.startswith(prefix)]
    if not over:
        return [c for c in plain if c != "rerun"]
    return [c for c in plain if c not in EXACTNESS] + over


def check_rerun(found, stderr, checks):
    """(ok, why): a row with "rerun" was named by the second run, announced on stderr; any other
    row ran the program once."""
    announced = RERUN_NOTE in (stderr or "")
    if "rerun" not in checks:
        return (not announced), ("the program ran a second time" if announced else "")
    errs = [f for f in found if f.get("kind") == "async-error"]
    named = bool(errs) and RERUN_TEXT in (errs[0].get("message") or "")
    ok = announced and named
    return ok, ("named by the second run" if ok else
                "second run: %s, message %s" % ("announced" if announced else "not announced",
                                                "names it" if named else "does not name it"))


def check_exactness(found, row, mode=None):
    """(ok, why) for the row's exactness check over the async-error findings."""
    checks = row_checks(row, mode)
    mode = next((c for c in checks if c in ("exact", "graph-node", "candidates", "graph")), None)
    if mode is None:
        return True, ""
    errs = [f for f in found if f.get("kind") == "async-error"]
    if not errs:
        return False, "no async-error finding"
    f = errs[0]
    kernel = row["kernel"] or ""
    if mode == "exact":
        hits = related_kernels(f, "faulting launch")
        ok = len(hits) == 1 and kernel in hits[0]
        return ok, "exact: %s" % ("one faulting launch of " + kernel if ok else "roles %s" % roles(f))
    if mode == "graph-node":
        hits = related_kernels(f, "faulting launch")
        graph = related_kernels(f, "graph launch")
        ok = len(hits) == 1 and kernel in hits[0] and len(graph) == 1
        return ok, "graph node exact: %s" % ("one faulting node of " + kernel if ok else "roles %s" % roles(f))
    if mode == "candidates":
        hits = related_kernels(f, "candidate launch")
        ok = len(hits) >= 2 and any(kernel in h for h in hits)
        return ok, "candidates: %d listed%s" % (len(hits), ", the faulting one among them" if ok else "")
    hits = related_kernels(f, "candidate node")
    graph = related_kernels(f, "faulting launch")
    ok = len(graph) == 1 and any(kernel in h for h in hits)
    return ok, "graph launch exact, %d candidate node(s)" % len(hits)


def judge_row(row, native, result, report, mode=None):
    """(ok, notes) for one program: native (exit, stdout); result (exit, stdout, stderr, timed
    out) of `cucheck run`. The native run must exit as the table says and cucheck like it."""
    ncode, nout = native
    ok, notes = verdict.judge(result[0], result[2], report, "run",
                              [row["expect"]] if row["expect"] else [], ncode, need="launches",
                              timed_out=result[3])
    if ncode != row["exit"]:
        ok = False
        notes.append("native exit %d, expected %d" % (ncode, row["exit"]))
    records, _ = verdict.read_report(report)
    found = verdict.report_findings(records)
    ok2, why2 = check_exactness(found, row, mode)
    if why2:
        notes.append(why2)
    ok3, why3 = check_rerun(found, result[2], row_checks(row, mode))
    ok2 = ok2 and ok3
    if why3:
        notes.append(why3)
    if "same-output" in row["checks"] and result[1] != nout:
        ok2 = False
        notes.append("stdout differs under cucheck")
    return ok and ok2, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cucheck", required=True)
    ap.add_argument("--build-dir", default=os.path.join(HERE, "build"))
    ap.add_argument("--python", default=os.environ.get("PYTHON", "python3"))
    modes = ap.add_mutually_exclusive_group()
    modes.add_argument("--progress", action="store_true",
                       help="run `cucheck run --progress on` and check the rows' p:CHECK tokens")
    modes.add_argument("--rerun-off", action="store_true",
                       help="run `cucheck run --rerun off` and check the rows' o:CHECK tokens")
    args = ap.parse_args()
    mode = "progress" if args.progress else "once" if args.rerun_off else None
    if not gpu_present():
        print("SKIPPED: no GPU")
        return 77
    nvcc = find_tool("nvcc", ["/usr/local/cuda/bin/nvcc"])
    if not nvcc:
        print("SKIPPED: nvcc not found")
        return 77
    try:
        rows = expectations.load(os.path.join(HERE, "expected.txt"), HERE)
    except expectations.ExpectationError as err:
        print("error: %s" % err)
        return 2
    bad = [m for m in (expectations.check_marker(r) for r in rows) if m]
    bin_dir = os.path.join(args.build_dir, "bin")
    sources = sorted({expectations.source_path(r) for r in rows if not expectations.is_python(r)})
    errors = build(nvcc, sources, bin_dir, gencode_flags())
    failures = list(bad)
    torch_ok, torch_why = True, ""
    if any(expectations.is_python(r) for r in rows):
        torch_ok, torch_why = torch_with_cuda(args.python)
    print("| program | expected | native exit | result | details |")
    print("|---|---|---|---|---|")
    for row in rows:
        name = row["example"]
        if errors.get(os.path.splitext(name)[0]):
            failures.append("%s: build failed: %s" % (name, errors[name][-300:]))
            continue
        if expectations.is_python(row) and not torch_ok:
            print("| %s | %s | - | SKIP | %s |" % (name, row["kind"], torch_why))
            continue
        cmd = program_cmd(row, bin_dir, args.python)
        ncode, nout, _ = run(cmd)
        report = os.path.join(args.build_dir, name + ("." + mode if mode else "") + ".jsonl")
        if os.path.exists(report):
            os.remove(report)
        opts = {"progress": ["--progress", "on"], "once": ["--rerun", "off"]}.get(mode, [])
        result = run_timed([args.cucheck, "--format", "json", "--output", report, "run"] + opts +
                           ["--"] + cmd)
        with open(report + ".log", "w", encoding="utf-8") as fh:
            fh.write(result[1] + result[2])
        status, notes = judge_row(row, (ncode, nout), result, report, mode)
        print("| %s | %s | %d | %s | %s |" % (name, row["kind"], ncode, "PASS" if status else "FAIL",
                                            "; ".join(notes)))
        if not status:
            failures.append("%s: %s" % (name, "; ".join(notes)))
    # Another tools-API client already present: one line, and the program still runs.
    sanitizer = find_tool("compute-sanitizer", ["/usr/local/cuda/bin/compute-sanitizer"])
    if sanitizer:
        cmd = [os.path.join(bin_dir, "attr_clean")]
        ncode, nout, _ = run(cmd)
        code, out, err = run([sanitizer, "--tool", "memcheck", args.cucheck, "run", "--"] + cmd)
        lines = [l for l in err.splitlines() if "cannot attach" in l]
        ok = len(lines) == 1 and "sync: cudaSuccess" in out
        print("| under compute-sanitizer | one message, program runs | %d | %s | %s |"
              % (ncode, "PASS" if ok else "FAIL", lines[0] if lines else "no 'cannot attach' line"))
        if not ok:
            failures.append("under compute-sanitizer: %s" % (err.strip().splitlines()[-3:]))
    for f in failures:
        print("FAIL: %s" % f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
