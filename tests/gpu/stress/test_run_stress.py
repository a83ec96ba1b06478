#!/usr/bin/env python3
"""Checks the stress runner (run_stress.py) without a GPU: its verdicts on hand-written JSON
reports (the expected finding, a wrong thread, an extra finding, a missing or garbage report, a
crashed or hung cucheck, exit statuses of signal-killed programs, the fork program's per-process
reports), its runs with a wall-clock limit (the whole process group is killed), and a whole
suite driven through a fake cucheck and fake programs, down to the table and the failure lines.
With CUCHECK_BIN naming the cucheck binary it also drives the real cucheck over programs
without CUDA (a forking shell script, a shell killed by SIGSEGV and by SIGABRT).
usage: [CUCHECK_BIN=build/cucheck] test_run_stress.py  (exit 0 when every check passes).
Standard library only."""
import json
import os
import resource
import signal
import stat
import sys
import tempfile
import textwrap
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run_stress  # noqa: E402
from run_stress import Program, RunResult  # noqa: E402

LOCATION = "stress_threads.cu:93"
DONE = "stress_threads: done 12345.0\n"
SUMMARY_ONE = "cucheck: memcheck: 1 error, 0 warnings in 1 process report\n"
SUMMARY_NONE = "cucheck: run: no findings in 1 process report\n"


def finding(kind="invalid-global-write", kernel="stress_overrun(float*, int, int)",
            thread=(232, 0, 0), block=(3, 0, 0), size=4, severity="error", line=93):
    return {"type": "finding", "id": 1, "tool": "memcheck", "kind": kind, "severity": severity,
            "message": "Address 0x7f0000000fa0 is 0 bytes after the end of a 4000-byte "
                       "device allocation", "count": 3,
            "device": {"kernel": kernel, "launch_id": 24001, "stream": "0x5", "pc": "0x90",
                       "file": "/src/tests/gpu/stress/stress_threads.cu", "line": line,
                       "block": list(block), "thread": list(thread),
                       "address": "0x7f0000000fa0", "size": size, "access": "write",
                       "space": "global"},
            "frames": [{"pc": "0x401000", "text": "worker (stress_threads.cu:201)"}]}


NOTE = {"type": "note", "tool": "memcheck",
        "text": "memcheck (adaptive mode): kernels checked 6/6, launches instrumented 40/24008"}


class Verdicts(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.report = os.path.join(self.dir, "r.json")
        self.rdir = os.path.join(self.dir, "r.d")
        self.bug = Program("threads8-bug", "stress_threads", ["8", "3000", "bug"],
                           bug_kernel="stress_overrun")
        self.clean = Program("threads8", "stress_threads", ["8", "3000"])
        self.native = RunResult(0, DONE, "", 0.4)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, records, path=None, tail=""):
        with open(path or self.report, "w", encoding="utf-8") as fh:
            for rec in records:
                fh.write(json.dumps(rec) + "\n")
            fh.write(tail)

    def judge(self, prog, label, res, native=None):
        return run_stress.judge(prog, label, native or self.native, res, self.report, self.rdir,
                                LOCATION)

    def test_expected_finding_passes(self):
        self.write([finding(), NOTE])
        status, notes = self.judge(self.bug, "memcheck", RunResult(0, DONE, SUMMARY_ONE, 2.0))
        self.assertEqual((status, notes), ("pass", []))

    def test_wrong_thread_fails(self):
        self.write([finding(thread=(231, 0, 0)), NOTE])
        status, notes = self.judge(self.bug, "memcheck --mode full",
                                   RunResult(0, DONE, SUMMARY_ONE, 2.0))
        self.assertEqual(status, "FAIL")
        self.assertIn("values", notes[0])

    def test_wrong_line_fails(self):
        self.write([finding(line=92)])
        status, notes = self.judge(self.bug, "memcheck", RunResult(0, DONE, SUMMARY_ONE, 2.0))
        self.assertEqual(status, "FAIL")
        self.assertIn(LOCATION, notes[0])

    def test_extra_finding_fails(self):
        self.write([finding(), finding(kind="invalid-global-read", severity="warning"), NOTE])
        status, notes = self.judge(self.bug, "memcheck", RunResult(0, DONE, SUMMARY_ONE, 2.0))
        self.assertEqual(status, "FAIL")
        self.assertIn("2 distinct errors/warnings instead of 1", notes[0])

    def test_missing_finding_fails(self):
        self.write([NOTE])
        status, notes = self.judge(self.bug, "memcheck", RunResult(0, DONE, SUMMARY_ONE, 2.0))
        self.assertEqual(status, "FAIL")
        self.assertIn("expected invalid-global-write, got no findings", notes[0])

    def test_clean_program_with_a_finding_fails(self):
        self.write([finding()])
        status, notes = self.judge(self.clean, "memcheck", RunResult(0, DONE, SUMMARY_ONE, 2.0))
        self.assertEqual(status, "FAIL")
        self.assertIn("expected a clean run", notes[0])

    def test_other_tools_expect_nothing_on_the_buggy_program(self):
        self.write([])
        res = RunResult(0, DONE, "cucheck: streamcheck: no findings in 1 process report\n", 1.0)
        self.assertEqual(self.judge(self.bug, "streamcheck", res), ("pass", []))
        self.write([finding(kind="race", kernel="stress_add")])
        self.assertEqual(self.judge(self.bug, "streamcheck", res)[0], "FAIL")

    def test_info_findings_do_not_count(self):
        self.write([finding(kind="profile-note", severity="info"), NOTE])
        res = RunResult(0, DONE, "cucheck: profile: 0 errors, 0 warnings, 1 info in 1 "
                                 "process report\n", 1.0)
        self.assertEqual(self.judge(self.clean, "profile", res), ("pass", []))

    def test_missing_report_fails(self):
        status, notes = self.judge(self.clean, "run", RunResult(0, DONE, SUMMARY_NONE, 1.0))
        self.assertEqual(status, "FAIL")
        self.assertTrue(any(n.startswith("no report file") for n in notes), notes)

    def test_garbage_report_fails(self):
        with open(self.report, "w", encoding="utf-8") as fh:
            fh.write('{"type":"note","tool":"run","text":"x"}\n{"type": garbage\n')
        status, notes = self.judge(self.clean, "run", RunResult(0, DONE, SUMMARY_NONE, 1.0))
        self.assertEqual(status, "FAIL")
        self.assertTrue(any(":2: not JSON" in n for n in notes), notes)
        with open(self.report, "w", encoding="utf-8") as fh:
            fh.write("[1, 2]\n")
        status, notes = self.judge(self.clean, "run", RunResult(0, DONE, SUMMARY_NONE, 1.0))
        self.assertTrue(any("not a report record" in n for n in notes), notes)

    def test_crashed_cucheck_fails(self):
        status, notes = self.judge(self.clean, "run",
                                   RunResult(-11, "", "Segmentation fault\n", 1.0))
        self.assertEqual(status, "FAIL")
        self.assertIn("cucheck crashed: killed by signal 11", notes[0])

    def test_cucheck_that_cannot_run_the_program_fails(self):
        status, notes = self.judge(self.clean, "memcheck", RunResult(
            2, "", "cucheck: cannot find the agent library\n", 0.1))
        self.assertEqual(status, "FAIL")
        self.assertIn("did not run the program (exit 2): cucheck: cannot find the agent",
                      notes[0])

    def test_hang(self):
        status, notes = self.judge(self.clean, "memcheck",
                                   RunResult(-9, "", "", 60.2, timed_out=True))
        self.assertEqual(status, "hung")
        self.assertIn("(hung)", notes[0])

    def test_signal_exit_status(self):
        prog = Program("abort-clean", "stress_fatal", ["abort", "clean"],
                       native_status=-signal.SIGABRT)
        native = RunResult(-6, "stress_fatal: overrun, then abort\n", "", 0.3)
        self.assertEqual(prog.expected_exit(), 134)
        self.write([])
        tail = "cucheck: program killed by signal 6 (Aborted)\n" \
               "cucheck: run: no findings in 1 process report; program killed by signal 6\n"
        ok = RunResult(134, native.stdout, tail, 1.0)
        self.assertEqual(self.judge(prog, "run", ok, native), ("pass", []))
        status, notes = self.judge(prog, "run", RunResult(0, native.stdout, tail, 1.0), native)
        self.assertEqual(status, "FAIL")
        self.assertIn("exit 0, expected 134", notes[0])
        self.assertIsNone(run_stress.judge_native(prog, native))
        self.assertIn("native exit 0, expected -6",
                      run_stress.judge_native(prog, RunResult(0, "", "", 0.1)))

    def test_stdout_and_summary(self):
        self.write([])
        status, notes = self.judge(self.clean, "run", RunResult(
            0, "stress_threads: done 12.0\n", SUMMARY_NONE, 1.0))
        self.assertEqual(status, "FAIL")
        self.assertIn("stdout differs from native: line 1", notes[0])
        status, notes = self.judge(self.clean, "run", RunResult(0, DONE, "", 1.0))
        self.assertEqual(status, "FAIL")
        self.assertIn("no summary line", notes[0])
        status, notes = self.judge(self.clean, "run", RunResult(
            0, DONE, "cucheck: run: no findings in 0 process reports\n", 1.0))
        self.assertIn("only 0 process report(s)", notes[0])

    def fork_reports(self, parent_findings, child_findings, cut_tail=False):
        os.makedirs(self.rdir, exist_ok=True)
        header = {"type": "header", "format": "cucheck-report", "format_version": 1,
                  "tool": "memcheck", "version": "0.1.0"}
        self.write([dict(header, pid=100)] + parent_findings,
                   os.path.join(self.rdir, "cucheck.100.jsonl"))
        self.write([dict(header, pid=101)] + child_findings,
                   os.path.join(self.rdir, "cucheck.101.jsonl"),
                   tail='{"type":"upd' if cut_tail else "")

    def test_fork(self):
        prog = Program("fork", "stress_fork", ["{bin}/stress_threads", "4", "400", "bug"],
                       fork=True, bug_kernel="stress_overrun", bug_source="stress_threads")
        native = RunResult(0, DONE + "stress_fork: child exited 0, parent done 4.0\n", "", 0.5)
        err = "stress_fork: parent pid 100 child pid 101\n" \
              "cucheck: memcheck: 1 error, 0 warnings in 2 process reports\n"
        res = RunResult(0, native.stdout, err, 3.0)
        self.write([finding()])
        self.fork_reports([], [finding()], cut_tail=True)
        self.assertEqual(self.judge(prog, "memcheck", res, native), ("pass", []))
        self.fork_reports([finding()], [finding()])
        status, notes = self.judge(prog, "memcheck", res, native)
        self.assertEqual(status, "FAIL")
        self.assertIn("the parent's report is not clean: invalid-global-write", notes)
        self.fork_reports([], [])
        status, notes = self.judge(prog, "memcheck", res, native)
        self.assertIn("the child's report has no invalid-global-write", notes)
        os.remove(os.path.join(self.rdir, "cucheck.101.jsonl"))
        status, notes = self.judge(prog, "memcheck", res, native)
        self.assertTrue(any(n.startswith("no report of the child (pid 101)") for n in notes))
        status, notes = self.judge(prog, "memcheck", RunResult(
            0, native.stdout, "cucheck: memcheck: 1 error, 0 warnings in 2 process reports\n",
            3.0), native)
        self.assertIn("the fork program printed no 'parent pid P child pid C' line", notes)

    def test_bug_location(self):
        path = os.path.join(self.dir, "x.cu")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write("/* the BUG line below */\n * BUG\nint a;\n  x = 1; /* BUG: here */\n")
        self.assertEqual(run_stress.bug_location(path), "x.cu:4")
        with open(path, "a", encoding="utf-8") as fh:
            fh.write("y = 2; // BUG too\n")
        with self.assertRaises(ValueError):
            run_stress.bug_location(path)
        with self.assertRaises(ValueError):
            run_stress.bug_location(os.path.join(self.dir, "missing.cu"))
        for source in ("stress_threads", "stress_fatal"):
            run_stress.bug_location(os.path.join(HERE, source + ".cu"))


def process_state(pid):
    """The state letter of /proc/PID/stat (Z: a zombie), None when there is no such process."""
    try:
        with open("/proc/%d/stat" % pid, encoding="utf-8") as fh:
            return fh.read().rpartition(")")[2].split()[0]
    except OSError:
        return None


def write_script(path, text):
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(textwrap.dedent(text).lstrip())
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


class Execute(unittest.TestCase):
    def test_hang_kills_the_process_group(self):
        with tempfile.TemporaryDirectory() as tmp:
            pidfile = os.path.join(tmp, "pid")
            t0 = time.monotonic()
            res = run_stress.execute(["sh", "-c", "sleep 100 & echo $! > %s; wait" % pidfile],
                                     1.0)
            self.assertTrue(res.timed_out)
            self.assertLess(time.monotonic() - t0, 20)
            with open(pidfile, encoding="utf-8") as fh:
                pid = int(fh.read())
            time.sleep(0.2)
            self.assertIn(process_state(pid), (None, "Z"), "the program's child outlived the kill")

    def test_signal_and_missing_binary(self):
        res = run_stress.execute(["sh", "-c", "echo out; kill -SEGV $$"], 10)
        self.assertEqual((res.code, res.stdout, res.timed_out), (-11, "out\n", False))
        res = run_stress.execute(["/nonexistent/cucheck"], 10)
        self.assertEqual(res.code, 127)
        self.assertIn("cannot start /nonexistent/cucheck", res.error)


FAKE_CUCHECK = r"""
    #!/usr/bin/env python3
    # A stand-in for cucheck: runs the program and writes a report whose shape depends on the
    # tool words (a hang, a crash, garbage, the expected finding).
    import json, os, signal, subprocess, sys, time
    a = sys.argv[1:]
    out, rdir = a[a.index("--output") + 1], a[a.index("--report-dir") + 1]
    dd = a.index("--")
    words, prog = a[a.index(rdir) + 1:dd], a[dd + 1:]
    label = " ".join(words)
    if label == "streamcheck --mode full":
        time.sleep(100)
    if label == "run --progress on":
        os.kill(os.getpid(), signal.SIGSEGV)
    sys.stdout.flush()
    p = subprocess.run(prog)
    code = p.returncode if p.returncode >= 0 else 128 - p.returncode
    os.makedirs(rdir, exist_ok=True)
    with open(out, "w") as fh:
        if label == "profile":
            fh.write("{garbage\n")
        elif words[0] == "memcheck" and prog[-1] == "bug":
            fh.write(json.dumps({"type": "finding", "tool": "memcheck",
                "kind": "invalid-global-write", "severity": "error", "message": "m",
                "device": {"kernel": "fake_overrun", "file": "fake.cu", "line": 7,
                           "block": [3, 0, 0], "thread": [232, 0, 0], "size": 4}}) + "\n")
    sys.stderr.write("cucheck: %s: no findings in 1 process report\n" % words[0])
    sys.exit(code)
"""


class WholeSuite(unittest.TestCase):
    def test_fake_suite(self):
        with tempfile.TemporaryDirectory() as tmp:
            bin_dir = os.path.join(tmp, "bin")
            os.makedirs(bin_dir)
            cucheck = os.path.join(tmp, "cucheck")
            write_script(cucheck, FAKE_CUCHECK)
            write_script(os.path.join(bin_dir, "fake"), """
                #!/bin/sh
                echo "fake: done $1"
                [ "$1" = segv ] && kill -SEGV $$
                exit 0
                """)
            progs = [Program("fake-bug", "fake", ["x", "bug"], bug_kernel="fake_overrun",
                             exclusive=True, what="buggy"),
                     Program("fake-clean", "fake", ["x"], what="clean"),
                     Program("fake-segv", "fake", ["segv"], native_status=-signal.SIGSEGV),
                     Program("broken", "broken_src", [], what="does not build")]
            lines_seen = []
            suite = run_stress.Suite(cucheck, bin_dir, os.path.join(tmp, "reports"), 3.0,
                                     time.monotonic() + 300, 4, lines_seen.append)
            t0 = time.monotonic()
            cells, natives = suite.run(progs, run_stress.TOOLS,
                                       {"broken_src": "fake.cu:1: error"}, {"fake": "fake.cu:7"})
            self.assertLess(time.monotonic() - t0, 60)
            status = {k: v[0] for k, v in cells.items()}
            for prog in ("fake-bug", "fake-clean", "fake-segv"):
                self.assertEqual(status[(prog, "run")], "pass", cells[(prog, "run")])
                self.assertEqual(status[(prog, "memcheck")], "pass", cells[(prog, "memcheck")])
                self.assertEqual(status[(prog, "streamcheck --mode full")], "hung")
                self.assertEqual(status[(prog, "run --progress on")], "FAIL")
                self.assertEqual(status[(prog, "profile")], "FAIL")
                self.assertIn("not JSON", cells[(prog, "profile")][2][0])
            for label, _ in run_stress.TOOLS:
                self.assertEqual(status[("broken", label)], "FAIL")
                self.assertIn("build failed", cells[("broken", label)][2][0])
            self.assertEqual(len(lines_seen), 3 * (1 + len(run_stress.TOOLS)))
            lines, failures = run_stress.table(progs, run_stress.TOOLS, cells, natives)
            self.assertEqual(len(lines), 2 + len(progs))
            self.assertTrue(lines[2].startswith("| fake-bug | buggy | "))
            self.assertIn("| pass ", lines[2])
            self.assertIn("| hung ", lines[2])
            self.assertTrue(any(f.startswith("HUNG: fake-clean / streamcheck --mode full: no "
                                              "exit within 3 s (hung)") for f in failures))
            self.assertTrue(any(f.startswith("FAIL: fake-segv / run --progress on: cucheck "
                                              "crashed: killed by signal 11") for f in failures))
            self.assertTrue(os.path.exists(os.path.join(
                tmp, "reports", "fake-bug.memcheck-mode-full.log")))

    def test_budget_spent(self):
        with tempfile.TemporaryDirectory() as tmp:
            prog = Program("late", "fake", [])
            suite = run_stress.Suite("/bin/false", tmp, os.path.join(tmp, "r"), 3.0,
                                     time.monotonic() - 1, 2, lambda text: None)
            cells, _ = suite.run([prog], run_stress.TOOLS[:1], {}, {})
            self.assertEqual(cells[("late", "run")][0], "FAIL")
            self.assertIn("time budget", cells[("late", "run")][2][0])


class RealCucheck(unittest.TestCase):
    """The runner against the real cucheck (CUCHECK_BIN) on programs without CUDA: the agent
    loads and writes its per-process reports, so the CLI's JSON output, summary line, exit
    statuses after signals and the fork program's per-process reports are read for real."""

    @unittest.skipUnless(os.access(os.environ.get("CUCHECK_BIN", ""), os.X_OK),
                         "CUCHECK_BIN does not name the cucheck binary")
    def test_without_cuda(self):
        with tempfile.TemporaryDirectory() as tmp:
            bin_dir = os.path.join(tmp, "bin")
            os.makedirs(bin_dir)
            write_script(os.path.join(bin_dir, "forking"), """
                #!/bin/sh
                sh -c 'echo "child: done"' &
                child=$!
                wait $child
                status=$?
                echo "stress_fork: parent pid $$ child pid $child" >&2
                echo "parent: child exited $status"
                """)
            write_script(os.path.join(bin_dir, "crashing"), """
                #!/bin/sh
                echo "crashing: now"
                kill -$1 $$
                """)
            progs = [Program("fork", "forking", [], fork=True),
                     Program("segv", "crashing", ["SEGV"], native_status=-signal.SIGSEGV),
                     Program("abort", "crashing", ["ABRT"], native_status=-signal.SIGABRT)]
            suite = run_stress.Suite(os.environ["CUCHECK_BIN"], bin_dir,
                                     os.path.join(tmp, "reports"), 60.0,
                                     time.monotonic() + 300, 4, lambda text: None)
            # profile subscribes through the driver's CUPTI: without a driver no report at all
            tools = [t for t in run_stress.TOOLS if t[0] != "profile"]
            cells, _ = suite.run(progs, tools, {}, {})
            self.assertEqual(len(cells), len(progs) * len(tools))
            for key, (status, _, notes) in sorted(cells.items()):
                self.assertEqual(status, "pass", "%s: %s" % (key, notes))


if __name__ == "__main__":
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    unittest.main(verbosity=1)
