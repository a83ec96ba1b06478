#!/usr/bin/env python3
"""The GPU test runner: builds the buggy and clean test programs (examples/*.cu and
tests/gpu/*.cu) with nvcc, runs each natively and under the cucheck tool named in its
expectations (examples/expected.txt, tests/gpu/expected.txt), and compares the JSON findings
(`cucheck --format json <tool> -- <program>`) with the expected kind, kernel and file:line.
Rows with the check `same-output` must also print exactly the same stdout and exit with the
same status under `cucheck --quiet --output FILE <tool>` as natively (the agent loads without
changing behaviour; cucheck's own report goes to FILE).
With --anchors it also runs each row's reference tool (compute-sanitizer, TORCH_CUDA_SANITIZER)
to show the examples themselves are right. Without a GPU: prints SKIPPED and exits 77.

usage: run_gpu_tests.py --cucheck BIN [--build-dir DIR] [--only NAME] [--anchors] [--keep-going]
Standard library only (python3 >= 3.9).
"""
import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import expectations  # noqa: E402
import findings  # noqa: E402

RUN_TIMEOUT_S = 600
# cucheck's own failures: usage error / agent missing, program not runnable, program not found
# (also what the dynamic loader returns when the injected agent's libraries are missing).
CUCHECK_COULD_NOT_RUN = (2, 126, 127)


def gpu_present():
    """True if nvidia-smi lists at least one GPU."""
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and any(l.startswith("GPU ") for l in out.stdout.splitlines())


def find_tool(name, candidates):
    path = shutil.which(name)
    if path:
        return path
    for cand in candidates:
        if os.access(cand, os.X_OK):
            return cand
    return None


def gencode_flags():
    """SASS for the GPU that is present plus its PTX; the examples' full list if unknown."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=60)
        caps = sorted({l.strip().replace(".", "") for l in out.stdout.splitlines() if l.strip()})
    except (OSError, subprocess.TimeoutExpired):
        caps = []
    if not caps or not all(c.isdigit() for c in caps):
        caps = ["80", "90"]
    flags = []
    for cap in caps:
        flags += ["-gencode", "arch=compute_%s,code=[sm_%s,compute_%s]" % (cap, cap, cap)]
    return flags


def build(nvcc, sources, out_dir, flags):
    """Compile each .cu into out_dir; returns {name: error text or None}."""
    os.makedirs(out_dir, exist_ok=True)

    def one(src):
        name = os.path.splitext(os.path.basename(src))[0]
        cmd = [nvcc, "-O2", "-lineinfo", "-g", "-I", os.path.dirname(src)] + flags + [
            "-o", os.path.join(out_dir, name), src]
        res = subprocess.run(cmd, capture_output=True, text=True)
        return name, None if res.returncode == 0 else (res.stderr.strip() or "nvcc failed")

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(pool.map(one, sources))


def run(cmd, env=None, timeout=RUN_TIMEOUT_S):
    """(exit status, stdout, stderr); status 124 on a timeout, 127 if it could not start."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                             env=full_env, timeout=timeout)
        return res.returncode, res.stdout, res.stderr
    except subprocess.TimeoutExpired as exc:
        return 124, exc.stdout or "", exc.stderr or ""
    except OSError as exc:
        return 127, "", str(exc)


def available_tools(cucheck):
    """Tool and subcommand names `cucheck --help` lists (first word of its indented lines)."""
    code, out, err = run([cucheck, "--help"], timeout=60)
    names = set()
    for line in (out + err).splitlines():
        m = re.match(r"^\s{1,8}([a-z][a-z0-9-]*)\b", line)
        if m:
            names.add(m.group(1))
    return names


def program_cmd(row, bin_dir, python):
    if expectations.is_python(row):
        return [python, expectations.source_path(row)]
    return [os.path.join(bin_dir, row["example"])]


def anchor_verdict(row, cmd, sanitizer):
    """(ok, text) of the row's reference tool on the program."""
    anchor = row["anchor"]
    if anchor.startswith("compute-sanitizer:"):
        if not sanitizer:
            return None, "compute-sanitizer not found"
        tool = anchor.split(":", 1)[1]
        code, out, err = run([sanitizer, "--tool", tool] + cmd)
        text = out + err
        m = re.search(r"ERROR SUMMARY: (\d+) error", text)
        h = re.search(r"RACECHECK SUMMARY: (\d+) hazard", text)
        count = (int(m.group(1)) if m else 0) + (int(h.group(1)) if h else 0)
        if not m and not h:
            return False, "no summary from compute-sanitizer (exit %d)" % code
    elif anchor.startswith("env:") and "=" in anchor:
        var, _, val = anchor[4:].partition("=")
        code, out, err = run(cmd, env={var: val})
        text = out + err
        count = text.count("CSAN detected a possible data race")
    else:
        return None, "unknown anchor %s" % anchor
    if row["kind"] == "none":
        return count == 0, "%s: %d report(s)" % (anchor, count)
    if count == 0:
        return False, "%s: found nothing" % anchor
    if row["location"]:
        base, _, line = row["location"].rpartition(":")
        base = os.path.basename(base)
        if "%s:%s" % (base, line) not in text and '%s", line %s' % (base, line) not in text:
            return False, "%s: %d report(s), none at %s" % (anchor, count, row["location"])
    return True, "%s: %d report(s)" % (anchor, count)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cucheck", help="the cucheck binary")
    ap.add_argument("--build-dir", default=os.path.join(HERE, "build"))
    ap.add_argument("--only", action="append", help="run only this example (repeatable)")
    ap.add_argument("--anchors", action="store_true", help="also run the reference tools")
    ap.add_argument("--python", default=os.environ.get("PYTHON", "python3"))
    args = ap.parse_args()

    if not gpu_present():
        print("SKIPPED: no GPU (nvidia-smi found no device)")
        return 77
    nvcc = find_tool("nvcc", ["/usr/local/cuda/bin/nvcc"])
    if not nvcc:
        print("SKIPPED: nvcc not found (needed to build the GPU test programs)")
        return 77
    sanitizer = find_tool("compute-sanitizer", [
        "/usr/local/cuda/bin/compute-sanitizer",
        "/usr/local/cuda/compute-sanitizer/compute-sanitizer"])
    cucheck = args.cucheck
    if cucheck and not os.access(cucheck, os.X_OK):
        print("error: cucheck binary %s is not executable" % cucheck)
        return 2

    try:
        rows = (expectations.load(os.path.join(REPO, "examples", "expected.txt"),
                                  os.path.join(REPO, "examples")) +
                expectations.load(os.path.join(HERE, "expected.txt"), HERE) +
                expectations.load(os.path.join(HERE, "attribution", "expected.txt"),
                                  os.path.join(HERE, "attribution")))
    except expectations.ExpectationError as err:
        print("error: %s" % err)
        return 1
    if args.only:
        rows = [r for r in rows if r["example"] in args.only]
    failures = [m for m in (expectations.check_marker(r) for r in rows) if m]

    bin_dir = os.path.join(args.build_dir, "bin")
    sources = sorted({expectations.source_path(r) for r in rows if not expectations.is_python(r)})
    print("building %d test program(s) with %s ..." % (len(sources), nvcc), flush=True)
    build_errors = build(nvcc, sources, bin_dir, gencode_flags())
    tools = available_tools(cucheck) if cucheck else set()

    native = {}
    table = []
    for row in rows:
        name, tool = row["example"], row["tool"]
        if build_errors.get(os.path.splitext(name)[0]):
            failures.append("%s: build failed: %s" % (name, build_errors[name]))
            table.append((name, tool, row["kind"], "-", "FAIL", "build failed"))
            continue
        cmd = program_cmd(row, bin_dir, args.python)
        if name not in native:
            native[name] = run(cmd)
        ncode, nout, nerr = native[name]
        notes, status = [], "PASS"
        if ncode != row["exit"]:
            status = "FAIL"
            notes.append("native exit %d, expected %d" % (ncode, row["exit"]))
        if not cucheck:
            status = status if status == "FAIL" else "N/A"
            notes.append("no --cucheck given")
        elif tool not in tools:
            status = status if status == "FAIL" else "N/A"
            notes.append("cucheck %s: not yet available in this build" % tool)
        else:
            report = os.path.join(args.build_dir, "%s.%s.jsonl" % (name, tool))
            if os.path.exists(report):
                os.remove(report)
            code, out, err = run([cucheck, "--format", "json", "--output", report, tool, "--"]
                                 + cmd)
            try:
                with open(report, encoding="utf-8", errors="replace") as fh:
                    text = fh.read()
            except OSError:
                text = out + err  # no report file: look for the findings in the output
            with open(report + ".log", "w", encoding="utf-8") as fh:
                fh.write(out + err)
            ok, why = findings.match(findings.extract(text), row["kind"], row["kernel"],
                                     row["location"])
            notes.append(why)
            if not ok:
                status = "FAIL"
            if code in CUCHECK_COULD_NOT_RUN and code != ncode:
                status = "FAIL"
                tail = (err.strip().splitlines() or ["no message"])[-1]
                notes.append("cucheck did not run the program (exit %d): %s" % (code, tail))
            if "same-output" in row["checks"]:
                quiet_report = os.path.join(args.build_dir, "%s.%s.quiet.txt" % (name, tool))
                code2, out2, _ = run([cucheck, "--quiet", "--output", quiet_report, tool, "--"]
                                     + cmd)
                if code2 in CUCHECK_COULD_NOT_RUN and code2 != ncode:
                    status = "FAIL"
                    notes.append("cucheck --quiet did not run the program (exit %d)" % code2)
                elif code2 != ncode or out2 != nout:
                    status = "FAIL"
                    notes.append("stdout or exit status differs under cucheck %s (native exit "
                                 "%d, %d line(s); cucheck exit %d, %d line(s))"
                                 % (tool, ncode, len(nout.splitlines()), code2,
                                    len(out2.splitlines())))
                else:
                    notes.append("same stdout and exit status as native")
        if args.anchors and row["anchor"]:
            aok, atext = anchor_verdict(row, cmd, sanitizer)
            notes.append(("anchor ok: " if aok else "anchor: ") + atext)
            if aok is False:
                status = "FAIL"
        if status == "FAIL":
            failures.append("%s (%s): %s" % (name, tool, "; ".join(notes)))
        table.append((name, tool, row["kind"], str(ncode), status, "; ".join(notes)))

    print("| program | tool | expected | native exit | result | details |")
    print("|---|---|---|---|---|---|")
    for entry in table:
        print("| %s |" % " | ".join(entry))
    for fail in failures:
        print("FAIL: %s" % fail)
    passed = sum(1 for t in table if t[4] == "PASS")
    print("%d passed, %d failed, %d not available" % (
        passed, sum(1 for t in table if t[4] == "FAIL"), sum(1 for t in table if t[4] == "N/A")))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
