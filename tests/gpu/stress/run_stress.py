#!/usr/bin/env python3
"""The stress suite: builds the programs of tests/gpu/stress/ with nvcc, runs each natively and
under every cucheck tool and mode (`run`, `run --progress on`, `memcheck` adaptive and full,
`streamcheck` default, full and api, `profile`, and `racecheck`, `synccheck`, `initcheck` in their
default adaptive mode), each run with a wall-clock limit, and checks
every run: no hang, cucheck's exit status and the program's stdout the same as natively (a
program killed by signal N: 128+N), a summary line naming at least one process report, and the
findings of `cucheck --format json --output FILE`: under memcheck exactly one distinct error or
warning on the buggy programs (the invalid-global-write with its kernel, file:line, thread,
block and size), none on the clean ones; none under the other tools. For the fork program the
per-process reports are read too: the parent's must be clean, the child's must hold the finding.

Runs go in parallel (--jobs); the 32-thread programs run one at a time in a lane of their own.
Prints a markdown table (program x tool/mode: pass, FAIL or hung, seconds) on stdout and to
--out FILE, then one line per failure; exits 1 if any run failed or hung. Runs not started
within --budget seconds of the start are failures too ("not run"), so the suite ends in about
budget + timeout seconds even when everything hangs. Without a GPU: prints "no GPU: skipped"
and exits 77.

usage: run_stress.py --cucheck BIN [--build-dir DIR] [--out FILE] [--timeout S] [--budget S]
                     [--jobs N] [--launches N] [--only PROGRAM]... [--tool LABEL]...
Standard library only (python3 >= 3.9)."""
import argparse
import concurrent.futures
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.dirname(HERE)
sys.path.insert(0, GPU)
sys.path.insert(0, os.path.join(GPU, "memcheck"))
import findings  # noqa: E402
import verdict  # noqa: E402
import run_gpu_tests  # noqa: E402
from run_memcheck_gpu import device_values_ok  # noqa: E402

# (label, cucheck words); the label is the table's column and what --tool selects.
TOOLS = [
    ("run", ["run"]),
    ("run --progress on", ["run", "--progress", "on"]),
    ("memcheck", ["memcheck"]),
    ("memcheck --mode full", ["memcheck", "--mode", "full"]),
    ("streamcheck", ["streamcheck"]),
    ("streamcheck --mode full", ["streamcheck", "--mode", "full"]),
    ("streamcheck --mode api", ["streamcheck", "--mode", "api"]),
    ("profile", ["profile"]),
    ("racecheck", ["racecheck"]),
    ("synccheck", ["synccheck"]),
    ("initcheck", ["initcheck"]),
]

# cucheck's own failures: usage error / agent missing, program not runnable, program not found.
CUCHECK_COULD_NOT_RUN = (2, 126, 127)
SUMMARY_RE = re.compile(r"^cucheck: [a-z-]+: .* in (\d+) process reports?\b", re.M)
FORK_PIDS_RE = re.compile(r"^stress_fork: parent pid (\d+) child pid (\d+)$", re.M)
THREAD_BLOCK_SIZE = {"thread": ["232.0.0"], "block": ["3.0.0"], "size": ["4"]}


class Program:
    """One program of the suite: a binary built from SOURCE.cu, its arguments, what it does
    natively (exit status, or -N for signal N) and the bug memcheck must find (or None)."""

    def __init__(self, name, source, args, native_status=0, bug_kernel=None, bug_source=None,
                 exclusive=False, fork=False, what=""):
        self.name, self.source, self.args = name, source, args
        self.native_status, self.bug_kernel = native_status, bug_kernel
        self.bug_source = (bug_source or source) if bug_kernel else None
        self.exclusive, self.fork, self.what = exclusive, fork, what

    def command(self, bin_dir):
        return [os.path.join(bin_dir, self.source)] + [
            a.replace("{bin}", bin_dir) for a in self.args]

    def expected_exit(self):
        """cucheck's exit status for this program: its own, or 128+N after signal N."""
        return 128 - self.native_status if self.native_status < 0 else self.native_status


def programs(launches):
    """The suite's programs; `launches` per thread for 1 and 8 threads, a third for 32."""
    few = str(max(1, launches // 3))
    many = str(launches)
    child = "{bin}/stress_threads"
    return [
        Program("threads1", "stress_threads", ["1", many], what="1 thread, clean"),
        Program("threads1-bug", "stress_threads", ["1", many, "bug"],
                bug_kernel="stress_overrun", what="1 thread, overrun"),
        Program("threads8", "stress_threads", ["8", many], what="8 threads, clean"),
        Program("threads8-bug", "stress_threads", ["8", many, "bug"],
                bug_kernel="stress_overrun", what="8 threads, overrun"),
        Program("threads32", "stress_threads", ["32", few], exclusive=True,
                what="32 threads, clean"),
        Program("threads32-bug", "stress_threads", ["32", few, "bug"], exclusive=True,
                bug_kernel="stress_overrun", what="32 threads, overrun"),
        Program("fork", "stress_fork", [child, "4", "400", "bug"], fork=True,
                bug_kernel="stress_overrun", bug_source="stress_threads", what="fork; the child execs an overrun"),
        Program("fork-clean", "stress_fork", [child, "4", "400"], fork=True,
                what="fork; the child execs a clean program"),
        Program("abort-bug", "stress_fatal", ["abort"], native_status=-signal.SIGABRT,
                bug_kernel="fatal_overrun", what="overrun, then abort()"),
        Program("abort-clean", "stress_fatal", ["abort", "clean"],
                native_status=-signal.SIGABRT, what="clean kernel, then abort()"),
        Program("segv-bug", "stress_fatal", ["segv"], native_status=-signal.SIGSEGV,
                bug_kernel="fatal_overrun", what="overrun, then a host SIGSEGV"),
        Program("segv-clean", "stress_fatal", ["segv", "clean"],
                native_status=-signal.SIGSEGV, what="clean kernel, then a host SIGSEGV"),
    ]


def bug_location(source_path):
    """'file.cu:LINE' of the one line of source_path with a BUG marker; raises ValueError."""
    try:
        with open(source_path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError as err:
        raise ValueError("cannot read %s: %s" % (source_path, err.strerror))
    marked = [n for n, line in enumerate(lines, 1)
              if "BUG" in line and not line.lstrip().startswith(("*", "/*", "//"))]
    if len(marked) != 1:
        raise ValueError("%s: expected one line of code with a BUG marker, found %d"
                         % (source_path, len(marked)))
    return "%s:%d" % (os.path.basename(source_path), marked[0])


# ---- running a command with a wall-clock limit ----

class RunResult:
    """What one run did: exit status (negative: killed by that signal), output, seconds, and
    whether it was stopped at its limit (timed_out) or could not start (error)."""

    def __init__(self, code, stdout, stderr, secs, timed_out=False, error=None):
        self.code, self.stdout, self.stderr = code, stdout, stderr
        self.secs, self.timed_out, self.error = secs, timed_out, error


def _kill_group(pgid):
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def execute(cmd, timeout):
    """Runs cmd in a session of its own; at the limit the whole process group is killed (the
    program under cucheck and its children too), and so is whatever the run left behind."""
    t0 = time.monotonic()
    try:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
    except OSError as err:
        return RunResult(127, "", str(err), 0.0, error="cannot start %s: %s" % (cmd[0],
                                                                                 err.strerror))
    timed_out = False
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        _kill_group(proc.pid)
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:  # a process outside the group holds the pipes
            proc.kill()
            out, err = b"", b"(output lost: the pipes stayed open after the kill)"
    secs = time.monotonic() - t0
    _kill_group(proc.pid)
    return RunResult(proc.returncode, out.decode("utf-8", "replace"),
                     err.decode("utf-8", "replace"), secs, timed_out)


# ---- reading reports ----

read_jsonl = verdict.read_report        # one reader of reports for every runner
report_findings = verdict.report_findings


def serious(found):
    return [f for f in found if findings.severity_of(f) in ("error", "warning")]


def per_process(report_dir):
    """({pid: [findings]} over every section of every *.jsonl file in report_dir, errors)."""
    by_pid, errors = {}, []
    try:
        names = sorted(n for n in os.listdir(report_dir) if n.endswith(".jsonl"))
    except OSError as err:
        return by_pid, ["cannot list the report directory %s: %s" % (report_dir, err.strerror)]
    for name in names:
        records, error = read_jsonl(os.path.join(report_dir, name), cut_tail_ok=True)
        if error:
            errors.append(error)
        pid = None
        for rec in records:
            if rec["type"] == "header":
                pid = rec.get("pid")
                by_pid.setdefault(pid, [])
            elif rec["type"] == "finding" and findings._is_finding(rec):
                by_pid.setdefault(pid, []).append(rec)
    return by_pid, errors


# ---- verdicts ----

def _last_line(text):
    lines = [l for l in text.strip().splitlines() if l.strip()]
    return lines[-1][:200] if lines else "no message"


def _first_difference(a, b):
    la, lb = a.splitlines(), b.splitlines()
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else "<none>"
        y = lb[i] if i < len(lb) else "<none>"
        if x != y:
            return "line %d: native %r, cucheck %r" % (i + 1, x[:120], y[:120])
    return "line endings differ"


def check_findings(prog, tool_label, found, location):
    """Notes of what is wrong with the merged findings of one run ([] = as expected)."""
    if tool_label.startswith("memcheck") and prog.bug_kernel:
        kind = "invalid-global-write"
        ok, why = findings.match(found, kind, prog.bug_kernel, location)
        if not ok:
            return [why]
        vok, vwhy = device_values_ok(found, kind, THREAD_BLOCK_SIZE, "")
        if not vok:
            return ["%s, but %s" % (why, vwhy)]
        bad = serious(found)
        if len(bad) != 1:
            return ["%s, but %d distinct errors/warnings instead of 1: %s" % (
                why, len(bad), ", ".join(sorted(f["kind"] for f in bad)))]
        return []
    ok, why = findings.match(found, "none")
    return [] if ok else [why]


def check_fork(prog, tool_label, res, report_dir):
    """Notes of what is wrong with the fork program's per-process reports."""
    m = FORK_PIDS_RE.search(res.stderr)
    if not m:
        return ["the fork program printed no 'parent pid P child pid C' line"]
    parent, child = int(m.group(1)), int(m.group(2))
    by_pid, errors = per_process(report_dir)
    notes = list(errors)
    if parent not in by_pid:
        notes.append("no report of the parent (pid %d) in %s" % (parent, report_dir))
    elif serious(by_pid[parent]):
        notes.append("the parent's report is not clean: %s" % ", ".join(
            sorted(f["kind"] for f in serious(by_pid[parent]))))
    if child not in by_pid:
        notes.append("no report of the child (pid %d) in %s" % (child, report_dir))
    elif tool_label.startswith("memcheck") and prog.bug_kernel:
        if not any(f["kind"] == "invalid-global-write" for f in by_pid[child]):
            notes.append("the child's report has no invalid-global-write")
    return notes


def judge(prog, tool_label, native, res, report_path, report_dir, location):
    """(status, notes): status 'pass', 'FAIL' or 'hung' for one run under cucheck."""
    if res.timed_out:
        return "hung", ["no exit within %.0f s (hung); stderr: %s" % (res.secs,
                                                                      _last_line(res.stderr))]
    if res.error:
        return "FAIL", [res.error]
    if res.code < 0:
        return "FAIL", ["cucheck crashed: killed by signal %d; stderr: %s" % (
            -res.code, _last_line(res.stderr))]
    want = prog.expected_exit()
    notes = []
    if res.code in CUCHECK_COULD_NOT_RUN and res.code != want:
        return "FAIL", ["cucheck did not run the program (exit %d): %s" % (
            res.code, _last_line(res.stderr))]
    if res.code != want:
        notes.append("exit %d, expected %d as natively" % (res.code, want))
    if res.stdout != native.stdout:
        notes.append("stdout differs from native: %s" % _first_difference(native.stdout,
                                                                          res.stdout))
    counts = [int(c) for c in SUMMARY_RE.findall(res.stderr)]
    if not counts:
        notes.append("no summary line from cucheck on stderr: %s" % _last_line(res.stderr))
    elif counts[-1] < (2 if prog.fork else 1):
        notes.append("only %d process report(s) collected" % counts[-1])
    records, error = read_jsonl(report_path)
    if error:
        notes.append(error)
    else:
        notes += check_findings(prog, tool_label, report_findings(records), location)
    if prog.fork:
        notes += check_fork(prog, tool_label, res, report_dir)
    return ("FAIL" if notes else "pass"), notes


def judge_native(prog, native):
    """None if the native run did what the program promises, else the reason."""
    if native.timed_out:
        return "the native run did not end within %.0f s" % native.secs
    if native.error:
        return native.error
    if native.code != prog.native_status:
        return "native exit %d, expected %d; stderr: %s" % (native.code, prog.native_status,
                                                            _last_line(native.stderr))
    return None


# ---- the suite ----

def slug(text):
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")


class Suite:
    """Runs natives first, then every (program, tool) case; exclusive programs in one lane."""

    def __init__(self, cucheck, bin_dir, report_root, timeout, budget_end, jobs, progress):
        self.cucheck, self.bin_dir, self.report_root = cucheck, bin_dir, report_root
        self.timeout, self.budget_end, self.jobs = timeout, budget_end, jobs
        self.progress = progress
        self.lock = threading.Lock()
        self.done = 0
        self.total = 0

    def _note(self, text):
        with self.lock:
            self.done += 1
            self.progress("[%d/%d] %s" % (self.done, self.total, text))

    def _in_lanes(self, tasks):
        """tasks: [(exclusive, fn)]; returns their results in order."""
        results = [None] * len(tasks)
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as lane, \
                concurrent.futures.ThreadPoolExecutor(max_workers=max(1, self.jobs)) as pool:
            futures = {}
            for i, (exclusive, fn) in enumerate(tasks):
                futures[(lane if exclusive else pool).submit(fn)] = i
            for fut in concurrent.futures.as_completed(futures):
                results[futures[fut]] = fut.result()
        return results

    def _native(self, prog):
        if time.monotonic() > self.budget_end:
            res = RunResult(-1, "", "", 0.0, error="the time budget was spent first")
        else:
            res = execute(prog.command(self.bin_dir), self.timeout)
        self._note("%s natively: exit %d, %.1f s" % (prog.name, res.code, res.secs))
        return res

    def _case(self, prog, label, words, native, location):
        if time.monotonic() > self.budget_end:
            self._note("%s / %s: not run (time budget spent)" % (prog.name, label))
            return "FAIL", 0.0, ["not run: the suite's time budget was spent"]
        base = os.path.join(self.report_root, "%s.%s" % (prog.name, slug(label)))
        report_path, report_dir = base + ".json", base + ".d"
        shutil.rmtree(report_dir, ignore_errors=True)
        if os.path.exists(report_path):
            os.remove(report_path)
        cmd = [self.cucheck, "--format", "json", "--output", report_path, "--report-dir",
               report_dir] + words + ["--"] + prog.command(self.bin_dir)
        res = execute(cmd, self.timeout)
        with open(base + ".log", "w", encoding="utf-8") as fh:
            fh.write("$ %s\nexit %s%s, %.2f s\n--- stdout\n%s--- stderr\n%s" % (
                " ".join(cmd), res.code, " (timed out)" if res.timed_out else "", res.secs,
                res.stdout, res.stderr))
        status, notes = judge(prog, label, native, res, report_path, report_dir, location)
        if status != "pass":
            notes.append("log %s.log" % base)
        self._note("%s / %s: %s %.1f s" % (prog.name, label, status, res.secs))
        return status, res.secs, notes

    def _guarded_case(self, prog, label, words, native, location):
        """_case, with any error of the runner itself (a report directory it cannot write)
        turned into a failing cell rather than a traceback."""
        try:
            return self._case(prog, label, words, native, location)
        except (OSError, ValueError) as err:
            self._note("%s / %s: runner error: %s" % (prog.name, label, err))
            return "FAIL", 0.0, ["the runner failed on this case: %s" % err]

    def run(self, progs, tools, build_errors, locations):
        """{(program, label): (status, seconds, notes)} and {program: native RunResult}."""
        os.makedirs(self.report_root, exist_ok=True)
        runnable = [p for p in progs if not build_errors.get(p.source)]
        self.total = len(runnable)
        natives = dict(zip([p.name for p in runnable], self._in_lanes(
            [(p.exclusive, (lambda p=p: self._native(p))) for p in runnable])))
        cells, tasks, keys = {}, [], []
        for prog in progs:
            for label, words in tools:
                key = (prog.name, label)
                if build_errors.get(prog.source):
                    cells[key] = ("FAIL", 0.0, ["build failed: %s" % build_errors[prog.source]])
                    continue
                why = judge_native(prog, natives[prog.name])
                if why:
                    cells[key] = ("FAIL", 0.0, ["not run: " + why])
                    continue
                keys.append(key)
                tasks.append((prog.exclusive,
                              (lambda p=prog, l=label, w=words: self._guarded_case(
                                  p, l, w, natives[p.name], locations.get(p.bug_source)))))
        with self.lock:
            self.total += len(tasks)
        for key, result in zip(keys, self._in_lanes(tasks)):
            cells[key] = result
        return cells, natives


def table(progs, tools, cells, natives):
    """The markdown table and the failure lines (one line for a program whose every run
    failed for the same reason, such as a build error)."""
    head = ["program", "what", "native s"] + [label for label, _ in tools]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    failures = []
    for prog in progs:
        native = natives.get(prog.name)
        row = [prog.name, prog.what, "%.2f" % native.secs if native else "-"]
        failed = []
        for label, _ in tools:
            status, secs, notes = cells[(prog.name, label)]
            row.append("%s %.1f" % (status, secs))
            if status != "pass":
                failed.append((label, status.upper(), "; ".join(notes)))
        if len(tools) > 1 and len(failed) == len(tools) and len({f[1:] for f in failed}) == 1:
            failures.append("%s: %s / every tool: %s" % (failed[0][1], prog.name, failed[0][2]))
        else:
            failures += ["%s: %s / %s: %s" % (st, prog.name, label, text)
                         for label, st, text in failed]
        lines.append("| " + " | ".join(row) + " |")
    return lines, failures


def main(argv=None):
    """The suite's exit status: 0 all passed, 1 a run failed or hung, 2 bad use, 77 skipped."""
    try:
        return _main(argv)
    except OSError as err:  # a build or report directory that cannot be made, a full disk
        print("error: %s" % err)
        return 2


def _main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cucheck", help="the cucheck binary")
    ap.add_argument("--build-dir", default=os.path.join(HERE, "build"),
                    help="programs, reports and logs go here")
    ap.add_argument("--out", help="also write the table and failures to this file")
    ap.add_argument("--timeout", type=float, default=60.0, help="seconds per run (default 60)")
    ap.add_argument("--budget", type=float, default=450.0,
                    help="no run starts later than this many seconds after the start (450)")
    ap.add_argument("--jobs", type=int, default=max(2, (os.cpu_count() or 4) // 2),
                    help="parallel runs besides the 32-thread lane (default: half the cores)")
    ap.add_argument("--launches", type=int, default=3000,
                    help="launches per thread of stress_threads (32 threads: a third)")
    ap.add_argument("--only", action="append", help="run only this program (repeatable)")
    ap.add_argument("--tool", action="append", help="run only this tool/mode label (repeatable)")
    args = ap.parse_args(argv)
    start = time.monotonic()

    if not run_gpu_tests.gpu_present():
        print("no GPU: skipped (nvidia-smi lists no device)")
        return 77
    nvcc, status = run_gpu_tests.build_tools(args.cucheck, "stress programs")
    if not nvcc:
        return status
    if args.timeout <= 0 or args.jobs < 1 or args.launches < 1:
        print("error: --timeout, --jobs and --launches must be positive")
        return 2

    progs = programs(args.launches)
    tools = TOOLS
    if args.only:
        unknown = set(args.only) - {p.name for p in progs}
        if unknown:
            print("error: unknown program(s) %s; the programs: %s" % (
                ", ".join(sorted(unknown)), ", ".join(p.name for p in progs)))
            return 2
        progs = [p for p in progs if p.name in args.only]
    if args.tool:
        unknown = set(args.tool) - {label for label, _ in TOOLS}
        if unknown:
            print("error: unknown tool label(s) %s; the labels: %s" % (
                ", ".join(sorted(unknown)), ", ".join(label for label, _ in TOOLS)))
            return 2
        tools = [t for t in TOOLS if t[0] in args.tool]

    locations = {}
    for source in sorted({p.bug_source for p in progs if p.bug_kernel}):
        try:
            locations[source] = bug_location(os.path.join(HERE, source + ".cu"))
        except ValueError as err:
            print("error: %s" % err)
            return 2
    # the fork program execs stress_threads: build it whenever the fork program runs
    sources = sorted({p.source for p in progs} | (
        {"stress_threads"} if any(p.fork for p in progs) else set()))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # abort and SIGSEGV: no core files
    bin_dir = os.path.join(os.path.abspath(args.build_dir), "bin")
    print("building %d program(s) with %s ..." % (len(sources), nvcc), file=sys.stderr,
          flush=True)
    build_errors = run_gpu_tests.build(
        nvcc, [os.path.join(HERE, s + ".cu") for s in sources], bin_dir,
        run_gpu_tests.gencode_flags() + ["-lpthread"])
    if any(p.fork for p in progs) and build_errors.get("stress_threads"):
        build_errors.setdefault("stress_fork", "its child stress_threads did not build")

    suite = Suite(os.path.abspath(args.cucheck), bin_dir,
                  os.path.join(os.path.abspath(args.build_dir), "reports"), args.timeout,
                  start + args.budget, args.jobs,
                  lambda text: print(text, file=sys.stderr, flush=True))
    cells, natives = suite.run(progs, tools, build_errors, locations)
    lines, failures = table(progs, tools, cells, natives)
    runs = len(cells)
    bad = sum(1 for c in cells.values() if c[0] != "pass")
    lines += [""] + failures + ["%d of %d runs passed, %d failed or hung; %.0f s wall" % (
        runs - bad, runs, bad, time.monotonic() - start)]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as fh:
                fh.write(text)
        except OSError as err:
            print("error: cannot write %s: %s" % (args.out, err.strerror))
            return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
