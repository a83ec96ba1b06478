#!/usr/bin/env python3
"""The GPU test runner: builds the buggy and clean test programs (examples/*.cu and
tests/gpu/*.cu) with nvcc, runs each natively and under the cucheck tool named in its
expectations (examples/expected.txt, tests/gpu/expected.txt, tests/gpu/attribution/expected.txt)
as `cucheck --format json --output FILE <tool> -- <program>`, and judges every run
(tests/gpu/verdict.py): cucheck exits with the program's native status (no crash, no timeout),
its summary names a process report, the report parses, the tool's closing note says what it
checked, and the findings are exactly the table's rows for that program and tool (kind, kernel,
device line or launch frame, thread, block, size, both sides of a race; any other error or
warning fails). A tool the table names that `cucheck --help` does not list fails.
Rows with the check `same-output` must also print exactly the same stdout and exit with the
same status under `cucheck --quiet --output FILE <tool>` as natively.
With --anchors it also runs each program's reference tool (compute-sanitizer,
TORCH_CUDA_SANITIZER) to show the examples themselves are right.
--programs cuda|python|all picks the CUDA programs, the Python (PyTorch) scripts or both; the
scripts' rows are SKIPPED (never passed) without torch with CUDA. Exit status: 0 all run rows
passed, 1 a row failed, 2 bad use, 77 skipped (no GPU, no nvcc for CUDA programs, or every
row skipped).

usage: run_gpu_tests.py --cucheck BIN [--build-dir DIR] [--only NAME] [--anchors]
                        [--programs cuda|python|all]
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
import verdict  # noqa: E402

RUN_TIMEOUT_S = 600
CUCHECK_COULD_NOT_RUN = verdict.CUCHECK_COULD_NOT_RUN
TABLES = (("examples/expected.txt", "examples"), ("tests/gpu/expected.txt", "tests/gpu"),
          ("tests/gpu/attribution/expected.txt", "tests/gpu/attribution"))


def gpu_present():
    """True if nvidia-smi lists at least one GPU."""
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and any(l.startswith("GPU ") for l in out.stdout.splitlines())


def torch_with_cuda(python):
    """(True, '') if `python` imports torch and torch sees a CUDA device, else (False, why)."""
    code, out, err = run([python, "-c", "import sys, torch; "
                          "sys.exit(0 if torch.cuda.is_available() else 3)"], timeout=300)
    if code == 0:
        return True, ""
    return False, ("torch sees no CUDA device" if code == 3 else
                   "no torch in %s (%s)" % (python, verdict._last_line(err)))


def find_tool(name, candidates):
    path = shutil.which(name)
    if path:
        return path
    for cand in candidates:
        if os.access(cand, os.X_OK):
            return cand
    return None


def build_tools(cucheck, programs):
    """(nvcc, 0) when the runner can build `programs` (words for the message) and run cucheck;
    else (None, status) after saying why: 77 (skip) without nvcc, 2 when cucheck is no
    executable."""
    nvcc = find_tool("nvcc", ["/usr/local/cuda/bin/nvcc"])
    if not nvcc:
        print("SKIPPED: nvcc not found (needed to build the %s)" % programs)
        return None, 77
    if not cucheck or not os.access(cucheck, os.X_OK):
        print("error: --cucheck %s is not an executable" % cucheck)
        return None, 2
    return nvcc, 0


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


def extra_flags(src):
    """The flags of a source's '// NVCC_EXTRA: ...' first line (e.g. -lcublas), else []."""
    try:
        with open(src, encoding="utf-8") as fh:
            first = fh.readline()
    except OSError:
        return []
    tag = "// NVCC_EXTRA:"
    return first[len(tag):].split() if first.startswith(tag) else []


def build(nvcc, sources, out_dir, flags):
    """Compile each .cu into out_dir (with its NVCC_EXTRA flags); returns {name: error text or
    None}."""
    os.makedirs(out_dir, exist_ok=True)

    def one(src):
        name = os.path.splitext(os.path.basename(src))[0]
        cmd = [nvcc, "-O2", "-lineinfo", "-g", "-I", os.path.dirname(src)] + flags + [
            "-o", os.path.join(out_dir, name), src] + extra_flags(src)
        res = subprocess.run(cmd, capture_output=True, text=True)
        return name, None if res.returncode == 0 else (res.stderr.strip() or "nvcc failed")

    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(pool.map(one, sources))


def run(cmd, env=None, timeout=RUN_TIMEOUT_S):
    """(exit status, stdout, stderr); status 124 on a timeout, 127 if it could not start."""
    code, out, err, _ = run_timed(cmd, env, timeout)
    return code, out, err


def run_timed(cmd, env=None, timeout=RUN_TIMEOUT_S):
    """(exit status, stdout, stderr, timed out); 127 if it could not start."""
    full_env = dict(os.environ)
    full_env.update(env or {})
    try:
        res = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                             env=full_env, timeout=timeout)
        return res.returncode, res.stdout, res.stderr, False
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode("utf-8", "replace") if isinstance(exc.stdout, bytes) else \
            (exc.stdout or "")
        err = exc.stderr.decode("utf-8", "replace") if isinstance(exc.stderr, bytes) else \
            (exc.stderr or "")
        return 124, out, err, True
    except OSError as exc:
        return 127, "", str(exc), False


def available_tools(cucheck):
    """The tools `cucheck --help` lists under "Tools" (the ones that run a program): first word
    of the indented lines of that section; every indented name if the help has no such section."""
    code, out, err = run([cucheck, "--help"], timeout=60)
    names, tools, section = set(), set(), None
    for line in (out + err).splitlines():
        if line and not line[0].isspace():
            section = line.split()[0].rstrip(":").lower()
            continue
        m = re.match(r"^\s{1,8}([a-z][a-z0-9-]*)\b", line)
        if m:
            names.add(m.group(1))
            if section == "tools":
                tools.add(m.group(1))
    return tools or names


def program_cmd(row, bin_dir, python):
    if expectations.is_python(row):
        return [python, expectations.source_path(row)]
    return [os.path.join(bin_dir, row["example"])]


def load_rows():
    rows = []
    for table, source in TABLES:
        rows += expectations.load(os.path.join(REPO, table), os.path.join(REPO, source))
    return rows


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


def need_of(tool, members):
    """What the tool's note must show it did: a checked launch for memcheck rows at a device
    line, a kernel launch for run and streamcheck (every program here launches kernels)."""
    if tool == "memcheck":
        return "checked" if any(r["kind"] != "none" and r["location"] for r in members) else None
    return "launches" if tool in ("run", "streamcheck") else None


def judge_group(members, tool, native, result, report, tools):
    """(ok, notes) for one program under one tool. native: (exit, stdout, stderr); result:
    (exit, stdout, stderr, timed out) of the cucheck run; tools: what `cucheck --help` lists."""
    notes = []
    want = members[0]["exit"]
    if native[0] != want:
        notes.append("native exit %d, expected %d" % (native[0], want))
    if tool not in tools:
        return False, notes + ["cucheck %s: no such tool in this build (`cucheck --help` does "
                               "not list it)" % tool]
    ok, why = verdict.judge(result[0], result[2], report, tool,
                            expectations.expects_of(members), native[0], need=need_of(tool, members),
                            timed_out=result[3])
    return ok and not notes, notes + why


def _skip_reason(members, torch_ok, torch_why, native):
    if expectations.is_python(members[0]):
        if not torch_ok:
            return torch_why
        if re.search(r"\bSKIPPED\b", native[1]):
            return "the script skipped itself: %s" % verdict._last_line(native[1])
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cucheck", help="the cucheck binary")
    ap.add_argument("--build-dir", default=os.path.join(HERE, "build"))
    ap.add_argument("--only", action="append", help="run only this example (repeatable)")
    ap.add_argument("--anchors", action="store_true", help="also run the reference tools")
    ap.add_argument("--programs", choices=("cuda", "python", "all"), default="all",
                    help="the CUDA programs, the Python scripts, or both (default)")
    ap.add_argument("--python", default=os.environ.get("PYTHON", "python3"))
    args = ap.parse_args(argv)

    if not gpu_present():
        print("SKIPPED: no GPU (nvidia-smi found no device)")
        return 77
    if not args.cucheck or not os.access(args.cucheck, os.X_OK):
        print("error: --cucheck must name the cucheck binary (got %s)" % args.cucheck)
        return 2
    try:
        rows = load_rows()
    except expectations.ExpectationError as err:
        print("error: %s" % err)
        return 1
    if args.only:
        rows = [r for r in rows if r["example"] in args.only]
    if args.programs != "all":
        rows = [r for r in rows if expectations.is_python(r) == (args.programs == "python")]
    sources = sorted({expectations.source_path(r) for r in rows if not expectations.is_python(r)})
    nvcc = find_tool("nvcc", ["/usr/local/cuda/bin/nvcc"])
    if sources and not nvcc:
        print("SKIPPED: nvcc not found (needed to build the GPU test programs)")
        return 77
    sanitizer = find_tool("compute-sanitizer", [
        "/usr/local/cuda/bin/compute-sanitizer",
        "/usr/local/cuda/compute-sanitizer/compute-sanitizer"])
    failures = [m for m in (expectations.check_marker(r) for r in rows) if m]
    bin_dir = os.path.join(args.build_dir, "bin")
    build_errors = {}
    if sources:
        print("building %d test program(s) with %s ..." % (len(sources), nvcc), flush=True)
        build_errors = build(nvcc, sources, bin_dir, gencode_flags())
    tools = available_tools(args.cucheck)
    torch_ok, torch_why = (True, "")
    if any(expectations.is_python(r) for r in rows):
        torch_ok, torch_why = torch_with_cuda(args.python)

    native, table = {}, []
    for name, tool, members in expectations.groups(rows):
        row = members[0]
        kinds = "+".join(r["kind"] for r in members)
        if build_errors.get(os.path.splitext(name)[0]):
            failures.append("%s: build failed: %s" % (name, build_errors[name]))
            table.append((name, tool, kinds, "-", "FAIL", "build failed"))
            continue
        cmd = program_cmd(row, bin_dir, args.python)
        if name not in native and (torch_ok or not expectations.is_python(row)):
            native[name] = run(cmd)
        skip = _skip_reason(members, torch_ok, torch_why, native.get(name, (0, "", "")))
        if skip:
            table.append((name, tool, kinds, "-", "SKIP", skip))
            continue
        report = os.path.join(args.build_dir, "%s.%s.jsonl" % (name, tool))
        if os.path.exists(report):
            os.remove(report)
        result = run_timed([args.cucheck, "--format", "json", "--output", report, tool, "--"]
                           + cmd)
        with open(report + ".log", "w", encoding="utf-8") as fh:
            fh.write(result[1] + result[2])
        ok, notes = judge_group(members, tool, native[name], result, report, tools)
        if ok and any("same-output" in r["checks"] for r in members):
            quiet_report = os.path.join(args.build_dir, "%s.%s.quiet.txt" % (name, tool))
            code2, out2, _ = run([args.cucheck, "--quiet", "--output", quiet_report, tool, "--"]
                                 + cmd)
            if code2 != native[name][0] or out2 != native[name][1]:
                ok = False
                notes.append("stdout or exit status differs under cucheck --quiet %s (native "
                             "exit %d, %d line(s); cucheck exit %d, %d line(s))"
                             % (tool, native[name][0], len(native[name][1].splitlines()), code2,
                                len(out2.splitlines())))
            else:
                notes.append("same stdout and exit status as native")
        if args.anchors and row["anchor"]:
            aok, atext = anchor_verdict(row, cmd, sanitizer)
            notes.append(("anchor ok: " if aok else "anchor: ") + atext)
            if aok is False:
                ok = False
        if not ok:
            failures.append("%s (%s): %s" % (name, tool, "; ".join(notes)))
        table.append((name, tool, kinds, str(native[name][0]), "PASS" if ok else "FAIL",
                      "; ".join(notes)))

    print("| program | tool | expected | native exit | result | details |")
    print("|---|---|---|---|---|---|")
    for entry in table:
        print("| %s |" % " | ".join(entry))
    for fail in failures:
        print("FAIL: %s" % fail)
    counts = {s: sum(1 for t in table if t[4] == s) for s in ("PASS", "FAIL", "SKIP")}
    print("%d passed, %d failed, %d skipped" % (counts["PASS"], counts["FAIL"], counts["SKIP"]))
    if failures:
        return 1
    return 77 if counts["PASS"] == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
