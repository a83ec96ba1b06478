#!/usr/bin/env python3
"""racecheck's GPU tests: builds the programs of tests/gpu/racecheck/ with nvcc -lineinfo (a
program's first line '// NVCC_EXTRA: FLAGS' adds link flags, e.g. -lcublas), runs each natively
and under `cucheck --format json --output FILE racecheck --mode full|adaptive`, and judges every
run of expected.txt (tests/gpu/verdict.py, rows as tests/gpu/memcheck/expected.txt): cucheck
exits with the program's native status, did not crash or hang, collected a process report that
parses, and the findings are exactly the program's rows (kind, kernel, device line of the access
that found the hazard); clean programs must report nothing and run cleanly natively too. Prints
a markdown table with the time of each run. PyTorch scripts (rows naming a .py program) run with
--python (default: this interpreter), SKIPPED without PyTorch and CUDA. Without a GPU: prints
SKIPPED and exits 77.

usage: run_racecheck_gpu.py --cucheck BIN [--build-dir DIR] [--modes full,adaptive] [--python PY]
Standard library only."""
import argparse
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.dirname(HERE)
sys.path.insert(0, GPU)
sys.path.insert(0, os.path.join(GPU, "memcheck"))
import findings  # noqa: E402
import run_gpu_tests  # noqa: E402
import run_memcheck_gpu as table  # noqa: E402  (the expected.txt reader and run groups)
import verdict  # noqa: E402


def load_rows(path):
    rows = table.load_rows(path)
    for row in rows:  # the programs are this folder's
        prog = row["prog"]
        row["src"] = os.path.join(HERE, prog if prog.endswith(".py") else prog + ".cu")
    return rows


def extra_flags(src):
    """The flags of a '// NVCC_EXTRA: ...' first line, else []."""
    try:
        with open(src, encoding="utf-8") as fh:
            first = fh.readline()
    except OSError:
        return []
    tag = "// NVCC_EXTRA:"
    return first[len(tag):].split() if first.startswith(tag) else []


def build(nvcc, sources, bin_dir):
    """{name: error text or None}: each program with the GPU's gencode and its own flags."""
    os.makedirs(bin_dir, exist_ok=True)
    errors = {}
    for src in sources:
        name = os.path.splitext(os.path.basename(src))[0]
        cmd = [nvcc, "-O2", "-lineinfo", "-I", HERE] + run_gpu_tests.gencode_flags() + [
            "-o", os.path.join(bin_dir, name), src] + extra_flags(src)
        res = subprocess.run(cmd, capture_output=True, text=True)
        errors[name] = None if res.returncode == 0 else (res.stderr.strip() or "nvcc failed")
    return errors


def judge_run(members, mode, native_code, result, report):
    code, out, err, timed_out = result
    expects = [table.expect_of(r, out) for r in members if r["kind"] != "none"]
    need = "checked" if any(r["device"] for r in members) else None
    ok, notes = verdict.judge(code, err, report, "racecheck", expects, native_code, mode=mode,
                              need=need, timed_out=timed_out)
    if not expects and native_code != 0:
        ok = False
        notes.append("the clean program exits %d natively" % native_code)
    return ok, notes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cucheck", required=True)
    ap.add_argument("--build-dir", default=os.path.join(HERE, "build"))
    ap.add_argument("--modes", default="full,adaptive")
    ap.add_argument("--timeout", type=int, default=run_gpu_tests.RUN_TIMEOUT_S)
    ap.add_argument("--python", help="the Python that runs the PyTorch scripts (default: this one)")
    args = ap.parse_args(argv)
    if not run_gpu_tests.gpu_present():
        print("SKIPPED: no GPU")
        return 77
    nvcc = run_gpu_tests.find_tool("nvcc", ["/usr/local/cuda/bin/nvcc"])
    if not nvcc:
        print("SKIPPED: nvcc not found (needed to build the racecheck test programs)")
        return 77
    if not os.access(args.cucheck, os.X_OK):
        print("error: --cucheck %s is not an executable" % args.cucheck)
        return 2
    try:
        rows = load_rows(os.path.join(HERE, "expected.txt"))
    except (OSError, table.TableError) as err:
        print("error: %s" % err)
        return 2
    bin_dir = os.path.join(args.build_dir, "bin")
    errors = build(nvcc, sorted({r["src"] for r in rows if not r["src"].endswith(".py")}), bin_dir)
    python = args.python or sys.executable or "python3"
    torch_ok, torch_why = (False, "no PyTorch script in the table")
    if any(r["src"].endswith(".py") for r in rows):
        torch_ok, torch_why = run_gpu_tests.torch_with_cuda(python)
    out_table, failures = [], []
    failures += ["%s: %s has no BUG marker" % (r["where"], r["location"])
                 for r in rows if not table.marker_ok(r)]
    native = {}
    for (name, opts, _), members in table.groups(rows):
        if errors.get(name):
            failures.append("%s: build failed: %s" % (name, errors[name][:300]))
            continue
        script = members[0]["src"].endswith(".py")
        if script and not torch_ok:
            out_table.append((name, "-", "+".join(r["kind"] for r in members), "SKIPPED", "-",
                              "-", "-", "-", torch_why))
            continue
        prog = [python, members[0]["src"]] if script else [os.path.join(bin_dir, name)]
        if name not in native:
            t0 = time.time()
            code, _, _ = run_gpu_tests.run(prog)
            native[name] = (code, time.time() - t0)
        kinds = "+".join(r["kind"] for r in members)
        for mode in args.modes.split(","):
            if members[0]["modes"] is not None and mode not in members[0]["modes"]:
                continue
            report = os.path.join(args.build_dir, "%s.%s.%d.json" % (name, mode, len(opts)))
            if os.path.exists(report):
                os.remove(report)
            cmd = [args.cucheck, "--format", "json", "--output", report, "racecheck",
                   "--mode", mode] + [o for opt in opts for o in opt.split("=", 1)]
            sys.stderr.write("run: %s --mode %s %s\n" % (name, mode, " ".join(opts)))
            sys.stderr.flush()
            t0 = time.time()
            result = run_gpu_tests.run_timed(cmd + ["--"] + prog, timeout=args.timeout)
            secs = time.time() - t0
            with open(report + ".log", "w", encoding="utf-8") as fh:
                fh.write(result[1] + result[2])
            ok, notes = judge_run(members, mode, native[name][0], result, report)
            records, _ = verdict.read_report(report)
            detail = "; ".join(findings.summarize(f) + " x%s" % f.get("count", 1)
                               for f in findings.serious(verdict.report_findings(records)))
            if not ok:
                failures.append("%s [%s %s]: %s (exit %d; log %s.log)" % (
                    name, mode, " ".join(opts), "; ".join(notes), result[0], report))
            out_table.append((name, mode, kinds, "PASS" if ok else "FAIL",
                              "%.2f" % native[name][1], "%.2f" % secs, str(native[name][0]),
                              str(result[0]), detail or "; ".join(notes)))
    print("| program | mode | expected | result | native s | cucheck s | native exit | cucheck exit | findings |")
    print("|---|---|---|---|---|---|---|---|---|")
    for t in out_table:
        print("| %s |" % " | ".join(t))
    for f in failures:
        print("FAIL: %s" % f)
    print("%d passed, %d failed, %d skipped" % (sum(1 for t in out_table if t[3] == "PASS"),
                                                len(failures),
                                                sum(1 for t in out_table if t[3] == "SKIPPED")))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
