#!/usr/bin/env python3
"""Checks the GPU runners' verdicts without a GPU (ctest gpu_runners_selftest): findings.py's
matching, verdict.py's judgement of a run, and the judge functions of run_gpu_tests.py,
memcheck/run_memcheck_gpu.py and attribution/run_attribution.py over the real expectation
tables, fed recorded-shape or synthetic reports: the expected findings pass; a crashed, hung or
wrongly exiting cucheck, a missing or garbled report, a missing summary or note, an extra
finding, a finding at the wrong line, thread or block, one whose line is only in a host frame,
a race with one side wrong, a tool the build lacks all fail. A whole run_gpu_tests.py suite runs
through a fake nvcc and a fake cucheck (torch rows skipped, not passed). The shell runners'
command (verdict.py) is run as the streamcheck runners run it. With CUCHECK_BIN naming the
cucheck binary, real reports are judged too: replays of scenarios (a memcheck device finding, a
streamcheck race) and runs of programs without CUDA (summary line, exit status).
usage: [CUCHECK_BIN=build/cucheck] test_runners.py   (exit 0 when every check passes)
Standard library only."""
import contextlib
import copy
import io
import json
import os
import re
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "memcheck"))
sys.path.insert(0, os.path.join(HERE, "attribution"))
sys.path.insert(0, os.path.join(HERE, "synccheck"))
sys.path.insert(0, os.path.join(HERE, "multigpu"))
import expectations  # noqa: E402
import findings  # noqa: E402
import run_attribution  # noqa: E402
import run_gpu_tests  # noqa: E402
import run_memcheck_gpu  # noqa: E402
import run_multigpu  # noqa: E402
import run_synccheck_gpu  # noqa: E402
import verdict  # noqa: E402
from findings import Expect  # noqa: E402

CUCHECK_BIN = os.environ.get("CUCHECK_BIN", "")
SUMMARY = "cucheck: %s: 1 error, 0 warnings (3 occurrences) in 1 process report\n"
ALL_TOOLS = {"run", "memcheck", "streamcheck", "profile", "replay", "inspect"}


def device_finding(kind="invalid-global-write", kernel="vecadd(float const*, float const*, "
                   "float*, int)", file="/src/examples/vecadd_oob.cu", line=13,
                   thread=(232, 0, 0), block=(3, 0, 0), size=4, access="write",
                   frames=("main (vecadd_oob.cu:37)",), address="0x7f0200000fa0"):
    """A memcheck device finding shaped as cucheck writes it (tests/scenarios/memcheck)."""
    return {"type": "finding", "tool": "memcheck", "kind": kind, "severity": "error",
            "message": "Address %s is 0 bytes after the end of a 4000-byte device allocation"
                       % address, "count": 24,
            "device": {"kernel": kernel, "launch_id": 1, "stream": "0x0", "pc": "0x70",
                       "file": file, "line": line, "block": list(block),
                       "thread": list(thread), "address": address, "size": size,
                       "access": access, "space": "global"},
            "frames": [{"pc": "0x0", "text": t} for t in frames],
            "related": [{"role": "allocation", "message": "4000 bytes allocated",
                         "frames": [{"pc": "0x0", "text": "main (vecadd_oob.cu:34)"}]}]}


def race(kernel="consume(float const*, float*, int)", access="read",
         other="produce(float*, int, long long)", other_access="write",
         frames=("main (stream_race.cu:53)",), other_frames=("main (stream_race.cu:51)",)):
    """A streamcheck race shaped as cucheck writes it: the later side in "device", the earlier
    one in the related "previous access"."""
    return {"type": "finding", "tool": "streamcheck", "kind": "race", "severity": "error",
            "message": "race on 262144 bytes", "count": 1,
            "device": {"kernel": kernel, "launch_id": 2, "stream": "0x10002",
                       "address": "0x7f0100000000", "size": 262144, "access": access,
                       "space": "global"},
            "frames": [{"pc": "0x0", "text": t} for t in frames],
            "related": [{"role": "previous access", "message": "kernel %s writes" % other,
                         "device": {"kernel": other, "launch_id": 1, "stream": "0x10001",
                                    "access": other_access, "space": "global"},
                         "frames": [{"pc": "0x0", "text": t} for t in other_frames]},
                        {"role": "allocation", "message": "device allocation"}]}


def shared_race(kind, access, other_access, line=20):
    """A racecheck finding shaped as cucheck writes it: the second access in "device", the
    first in the related "previous access", both on the device."""
    kernel = "block_sum(int const*, int*, int)"

    def side(acc, thread):
        return {"kernel": kernel, "kernel_mangled": "_Z9block_sumPKiPii", "launch_id": 1,
                "stream": "0x0", "pc": "0x1c0", "file": "/src/examples/reduce_nosync.cu",
                "line": line, "block": [0, 0, 0], "thread": [thread, 0, 0], "address": "0x94",
                "size": 4, "access": acc, "space": "shared"}
    return {"type": "finding", "tool": "racecheck", "kind": kind, "severity": "error",
            "message": "Race on __shared__ memory", "count": 9, "device": side(access, 5),
            "frames": [{"pc": "0x0", "text": "main (reduce_nosync.cu:45)"}],
            "related": [{"role": "previous access", "message": "thread (37,0,0) writes",
                         "device": side(other_access, 37)}]}


def async_error(kernel="_Z9fill_rowsPfmii", frames=("main (pitch_fault.cu:34)",),
                role="faulting launch", tool="run"):
    return {"type": "finding", "tool": tool, "kind": "async-error", "severity": "error",
            "message": "cudaErrorIllegalAddress (700) surfaced in cudaMemcpy2D",
            "count": 1, "device": {"kernel": kernel, "launch_id": 1, "stream": "0x0"},
            "frames": [{"pc": "0x0", "text": "main (pitch_fault.cu:36)"}],
            "related": [{"role": role, "message": "launch #1 of %s" % kernel,
                         "device": {"kernel": kernel, "launch_id": 1, "stream": "0x0"},
                         "frames": [{"pc": "0x0", "text": t} for t in frames]}]}


def note(tool, mode=None, checked=1, launches=1):
    if tool == "memcheck":
        text = ("memcheck (%s mode): kernels checked %d/%d, launches instrumented %d/%d; 0 "
                "copies and 0 memsets range-checked" % (mode or "adaptive", checked, checked,
                                                        launches, launches))
    elif tool == "streamcheck":
        text = ("streamcheck (mode %s): ordered %d kernel launch(es), 0 graph launch(es) with "
                "0 node(s), 1 copies, 0 memsets, 2 synchronization(s)" % (mode or "default",
                                                                          launches))
    elif tool == "run":
        text = ("run: tracked 1 context(s), 1 module(s), %d kernel launch(es), 0 graph "
                "launch(es), 1 copies, 0 memsets, 1 allocations (peak 16 bytes), 0 failed API "
                "call(s)" % launches)
    else:
        text = ("profile: %d kernel instance(s) of 1 kernel(s), 1.000 ms of GPU kernel time; 0 "
                "memory operation(s), 3 API call(s), 0 NVTX range(s)" % launches)
    return {"type": "note", "tool": tool, "text": text}


def write_report(path, records):
    with open(path, "w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec) + "\n")


def write_script(path, text):
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(textwrap.dedent(text).lstrip())
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def readme_tool_cells(path):
    """[(row, its "cucheck tool" cell)] of the markdown tables whose header has that column."""
    cells, column = [], None
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            parts = line.split("|")
            if not line.startswith("|"):
                column = None
            elif column is None and "cucheck tool" in parts:
                column = parts.index("cucheck tool")
            elif column is None:
                heads = [p.strip() for p in parts]
                column = heads.index("cucheck tool") if "cucheck tool" in heads else None
            elif not line.startswith("|---") and len(parts) > column:
                cells.append((line, parts[column]))
    if not cells:
        raise AssertionError("%s has no table with a 'cucheck tool' column" % path)
    return cells


def table_groups(table, source):
    rows = expectations.load(os.path.join(REPO, table), os.path.join(REPO, source))
    return {(name, tool): members for name, tool, members in expectations.groups(rows)}


VECADD_EXPECTS = [Expect("invalid-global-write", "vecadd", "vecadd_oob.cu:13",
                         {"thread": ["232.0.0"], "block": ["3.0.0"], "access": ["write"]}),
                  Expect("invalid-global-read", "vecadd", "vecadd_oob.cu:13",
                         {"thread": ["232.0.0"], "block": ["3.0.0"], "access": ["read"]})]


class Matching(unittest.TestCase):
    """findings.match_set and findings.Expect on one report's findings."""

    def test_expected_findings_pass(self):
        ok, notes = findings.match_set([device_finding(), device_finding(
            kind="invalid-global-read", access="read")], VECADD_EXPECTS)
        self.assertTrue(ok, notes)

    def test_extra_unexpected_finding_fails(self):
        found = [device_finding(), device_finding(kind="invalid-global-read", access="read"),
                 device_finding(kind="misaligned-global-read", access="read", line=14)]
        ok, notes = findings.match_set(found, VECADD_EXPECTS)
        self.assertFalse(ok)
        self.assertTrue(any(n.startswith("UNEXPECTED misaligned-global-read") for n in notes),
                        notes)

    def test_api_error_names_its_call(self):
        """A failed API call has no kernel: the call its message names stands for it."""
        failed = {"type": "finding", "tool": "run", "kind": "api-error", "severity": "error",
                  "message": "cudaMalloc returned cudaErrorMemoryAllocation (2): out of memory"}
        self.assertTrue(findings.names_kernel(failed, "cudaMalloc"))
        self.assertFalse(findings.names_kernel(failed, "cudaFree"))
        self.assertFalse(findings.names_kernel(failed, "Malloc"))

    def test_warning_counts_info_does_not(self):
        extra = device_finding(kind="leak", access="read")
        extra["severity"] = "warning"
        self.assertFalse(findings.match_set([extra], [])[0])
        extra["severity"] = "info"
        self.assertTrue(findings.match_set([extra], [])[0])

    def test_finding_at_the_wrong_line_fails(self):
        ok, notes = findings.match_set([device_finding(line=12)], VECADD_EXPECTS[:1])
        self.assertFalse(ok)
        self.assertIn("vecadd_oob.cu:12, not vecadd_oob.cu:13", " ".join(notes))

    def test_line_only_in_a_host_frame_fails(self):
        """The device line is wrong; a host frame happens to name the expected file:line."""
        wrong = device_finding(line=40, frames=("helper (vecadd_oob.cu:13)",
                                                "main (vecadd_oob.cu:37)"))
        self.assertFalse(findings.match_set([wrong], VECADD_EXPECTS[:1])[0])
        self.assertFalse(findings.match([wrong], "invalid-global-write", "vecadd",
                                        "vecadd_oob.cu:13")[0])

    def test_line_only_in_a_related_place_fails(self):
        host = race(frames=("main (stream_race.cu:60)",),
                    other_frames=("main (stream_race.cu:53)",))
        exp = Expect("race", "consume", "stream_race.cu:53")
        self.assertFalse(findings.match_set([host], [exp])[0])

    def test_same_line_number_in_another_file_fails(self):
        other_file = device_finding(file="/src/examples/xvecadd_oob.cu")
        self.assertFalse(findings.match_set([other_file], VECADD_EXPECTS[:1])[0])

    def test_wrong_thread_or_block_fails(self):
        for bad in (device_finding(thread=(233, 0, 0)), device_finding(block=(2, 0, 0)),
                    device_finding(thread=(232, 1, 0))):
            ok, notes = findings.match_set([bad], VECADD_EXPECTS[:1])
            self.assertFalse(ok, bad["device"])
            self.assertTrue(any(n.startswith("MISSING") for n in notes))

    def test_wildcard_components_and_alternatives(self):
        exp = Expect("invalid-global-read", "gelu_backward",
                     "activation_backward_bug.cu:44",
                     {"thread": ["*.6.0", "*.7.0"], "block": ["*.3.0"]})
        good = device_finding("invalid-global-read", "gelu_backward(float const*, ...)",
                              "activation_backward_bug.cu", 44, (16, 6, 0), (2, 3, 0))
        self.assertTrue(findings.match_set([good], [exp])[0])
        bad = device_finding("invalid-global-read", "gelu_backward(float const*, ...)",
                             "activation_backward_bug.cu", 44, (16, 5, 0), (2, 3, 0))
        self.assertFalse(findings.match_set([bad], [exp])[0])
        bad_block = device_finding("invalid-global-read", "gelu_backward(float const*, ...)",
                                   "activation_backward_bug.cu", 44, (0, 7, 0), (1, 2, 0))
        self.assertFalse(findings.match_set([bad_block], [exp])[0])

    def test_wrong_access_or_size_fails(self):
        exp = Expect("invalid-global-write", "vecadd", "vecadd_oob.cu:13",
                     {"size": ["4"], "access": ["write"]})
        self.assertFalse(findings.match_set([device_finding(size=8)], [exp])[0])
        self.assertFalse(findings.match_set([device_finding(access="read")], [exp])[0])

    def test_both_sides_of_a_race(self):
        exp = Expect("race", "consume", "stream_race.cu:53", {"access": ["read"]},
                     other="produce", other_access="write")
        self.assertTrue(findings.match_set([race()], [exp])[0])
        for bad in (race(other="clobber(float*)"), race(kernel="produce(float*)"),
                    race(other_access="read"), race(access="write")):
            ok, notes = findings.match_set([bad], [exp])
            self.assertFalse(ok, bad)
        no_other = race()
        no_other["related"] = no_other["related"][1:]
        ok, notes = findings.match_set([no_other], [exp])
        self.assertFalse(ok)
        self.assertIn("no other side", " ".join(notes))

    def test_race_alternatives_for_the_other_side(self):
        exp = Expect.from_spec("kind=race;kernel=clobber;other=g_produce|g_consume")
        self.assertTrue(findings.match_set([race(kernel="clobber", other="g_consume")],
                                           [exp])[0])
        self.assertFalse(findings.match_set([race(kernel="clobber", other="fill")], [exp])[0])

    def test_optional_finding(self):
        exps = [Expect("invalid-global-write", "fill_rows", "pitch_fault.cu:16"),
                Expect("async-error", "fill_rows", optional=True)]
        write = device_finding(kernel="fill_rows(float*, unsigned long, int, int)",
                               file="pitch_fault.cu", line=16)
        self.assertTrue(findings.match_set([write], exps)[0])
        self.assertTrue(findings.match_set([write, async_error(tool="memcheck")], exps)[0])
        self.assertFalse(findings.match_set([async_error(tool="memcheck")], exps)[0])
        self.assertFalse(findings.match_set(
            [write, async_error(tool="memcheck"), async_error(kernel="other", tool="memcheck")],
            exps)[0])

    def test_duplicate_expectations_need_distinct_findings(self):
        exps = [Expect("invalid-global-read", "vecadd", "vecadd_oob.cu:13")] * 2
        one = device_finding(kind="invalid-global-read", access="read")
        self.assertFalse(findings.match_set([one], exps)[0])
        self.assertTrue(findings.match_set([one, copy.deepcopy(one)], exps)[0])

    def test_async_error_location_is_the_launch(self):
        exp = Expect("async-error", "fill_rows", "pitch_fault.cu:34")
        self.assertTrue(findings.match_set([async_error()], [exp])[0])
        surfaced_only = async_error(frames=("main (pitch_fault.cu:20)",))
        self.assertFalse(findings.match_set([surfaced_only], [exp])[0])
        cand = async_error(kernel="third_faults", role="candidate launch")
        cand["device"] = {}
        self.assertTrue(findings.match_set([cand], [Expect("async-error", "third_faults")])[0])

    def test_clean_run(self):
        self.assertTrue(findings.match_set([], [])[0])
        self.assertFalse(findings.match_set([race()], [])[0])

    def test_device_fields_required(self):
        exp = Expect("invalid-global-write", "vecadd", "vecadd_oob.cu:13", device=True)
        f = device_finding()
        self.assertTrue(findings.match_set([f], [exp])[0])
        del f["device"]["thread"]
        ok, notes = findings.match_set([f], [exp])
        self.assertFalse(ok)
        self.assertIn("no device thread", " ".join(notes))

    def test_bad_specs(self):
        for spec in ("kernel=x", "kind=race;thread=1.2", "kind=race;color=red",
                     "kind=race;size=four", "kind=race;location=nofile", "kind=race;bogus"):
            with self.assertRaises(findings.SpecError, msg=spec):
                Expect.from_spec(spec)


class RunVerdicts(unittest.TestCase):
    """verdict.judge: how cucheck ended, what it collected, the report and the note."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.report = os.path.join(self.tmp.name, "r.jsonl")

    def tearDown(self):
        self.tmp.cleanup()

    def judge(self, records, code=0, stderr=SUMMARY % "memcheck", want=0, mode="full",
              need="checked", expects=None, timed_out=False):
        if records is not None:
            write_report(self.report, records)
        return verdict.judge(code, stderr, self.report, "memcheck",
                             VECADD_EXPECTS[:1] if expects is None else expects, want,
                             mode=mode, need=need, timed_out=timed_out)

    def test_good_run_passes(self):
        ok, notes = self.judge([device_finding(), note("memcheck", "full")])
        self.assertTrue(ok, notes)

    def test_crash_exit_fails(self):
        for code in (-11, 139, 134):
            ok, notes = self.judge([device_finding(), note("memcheck", "full")], code=code)
            self.assertFalse(ok, code)
            self.assertTrue("signal" in notes[0], notes)

    def test_timeout_fails(self):
        ok, notes = self.judge([device_finding(), note("memcheck", "full")], code=124,
                               timed_out=True)
        self.assertFalse(ok)
        self.assertIn("time limit", notes[0])

    def test_exit_other_than_the_programs_fails(self):
        rec = [device_finding(), note("memcheck", "full")]
        self.assertFalse(self.judge(rec, code=1, want=0)[0])
        self.assertTrue(self.judge(rec, code=1, want=1)[0])
        ok, notes = self.judge(rec, code=127, want=0)
        self.assertFalse(ok)
        self.assertIn("did not run the program", notes[0])

    def test_missing_report_fails(self):
        ok, notes = self.judge(None)
        self.assertFalse(ok)
        self.assertTrue(any(n.startswith("no report file") for n in notes), notes)

    def test_garbled_report_fails(self):
        with open(self.report, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(note("memcheck", "full")) + "\n{\"type\": garbage\n")
        ok, notes = self.judge(None)
        self.assertFalse(ok)
        self.assertTrue(any(":2: not JSON" in n for n in notes), notes)

    def test_no_process_report_fails(self):
        rec = [device_finding(), note("memcheck", "full")]
        for stderr in ("", "cucheck: memcheck: no findings in 0 process reports\n",
                       SUMMARY % "memcheck" + "cucheck: note: no process wrote a report (was "
                                              "the agent loaded? try 'cucheck doctor')\n",
                       "cucheck: cannot attach: another CUDA tools-API client\n"
                       + SUMMARY % "memcheck"):
            ok, notes = self.judge(rec, stderr=stderr)
            self.assertFalse(ok, stderr)

    def test_missing_note_fails(self):
        ok, notes = self.judge([device_finding()])
        self.assertFalse(ok)
        self.assertTrue(any("no closing note of memcheck" in n for n in notes), notes)

    def test_note_of_the_wrong_mode_fails(self):
        ok, notes = self.judge([device_finding(), note("memcheck", "adaptive")], mode="full")
        self.assertFalse(ok)
        self.assertTrue(any("mode full" in n for n in notes), notes)

    def test_note_without_a_checked_launch_fails(self):
        ok, notes = self.judge([device_finding(), note("memcheck", "full", checked=0,
                                                       launches=0)])
        self.assertFalse(ok)
        self.assertTrue(any("checked > 0" in n for n in notes), notes)

    def test_other_tools_notes(self):
        write_report(self.report, [note("streamcheck", "api", launches=2)])
        self.assertIsNone(verdict.check_note(verdict.read_report(self.report)[0],
                                             "streamcheck", "api", "launches"))
        self.assertIsNotNone(verdict.check_note(verdict.read_report(self.report)[0],
                                                "streamcheck", "full", "launches"))
        for tool in ("run", "profile"):
            self.assertIsNone(verdict.check_note([note(tool)], tool, None, "launches"))
            self.assertIsNotNone(verdict.check_note([note(tool, launches=0)], tool, None,
                                                    "launches"))
        no_calls = {"type": "note", "tool": "run", "text": "run: this process made no CUDA "
                    "calls (no context, launch, copy or allocation was seen)"}
        self.assertIsNotNone(verdict.check_note([no_calls], "run", None, "launches"))


class CommandLine(unittest.TestCase):
    """verdict.py as the streamcheck shell runners call it."""

    def run_cli(self, records, exit_code, *expect, log=SUMMARY % "streamcheck", mode="default"):
        with tempfile.TemporaryDirectory() as tmp:
            rep, logf = os.path.join(tmp, "r.json"), os.path.join(tmp, "r.log")
            write_report(rep, records)
            with open(logf, "w", encoding="utf-8") as fh:
                fh.write(log)
            args = [sys.executable, os.path.join(HERE, "verdict.py"), "--report", rep, "--log",
                    logf, "--exit", str(exit_code), "--tool", "streamcheck", "--mode", mode,
                    "--need", "launches"]
            for e in expect:
                args += ["--none"] if e == "none" else ["--expect", e]
            res = subprocess.run(args, capture_output=True, text=True)
            return res.returncode, res.stdout + res.stderr

    def test_both_sides(self):
        spec = "kind=race;kernel=consume;access=read;other=produce;other-access=write"
        rc, out = self.run_cli([race(), note("streamcheck")], 0, spec)
        self.assertEqual(rc, 0, out)
        self.assertTrue(out.startswith("PASS"))
        rc, out = self.run_cli([race(other="steady_reader"), note("streamcheck")], 0, spec)
        self.assertEqual(rc, 1, out)
        self.assertIn("other side steady_reader", out)

    def test_crash_and_clean_and_bad_use(self):
        self.assertEqual(self.run_cli([note("streamcheck")], 139, "none")[0], 1)
        self.assertEqual(self.run_cli([note("streamcheck")], 0, "none")[0], 0)
        self.assertEqual(self.run_cli([race(), note("streamcheck")], 0, "none")[0], 1)
        self.assertEqual(self.run_cli([note("streamcheck", "full")], 0, "none")[0], 1)
        self.assertEqual(self.run_cli([note("streamcheck")], 0, "kind=race;thread=x")[0], 2)
        self.assertEqual(self.run_cli([note("streamcheck")], 0)[0], 2)


class ExamplesRunner(unittest.TestCase):
    """run_gpu_tests.judge_group over the real tables (examples/, tests/gpu/, attribution/)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.report = os.path.join(self.tmp.name, "r.jsonl")
        self.groups = table_groups("examples/expected.txt", "examples")

    def tearDown(self):
        self.tmp.cleanup()

    def judge(self, key, records, code=0, native=(0, "", ""), tools=ALL_TOOLS, stderr=None):
        write_report(self.report, records)
        return run_gpu_tests.judge_group(self.groups[key], key[1], native,
                                         (code, "", stderr or SUMMARY % key[1], False),
                                         self.report, tools)

    def vecadd(self):
        return [device_finding(), device_finding(kind="invalid-global-read", access="read"),
                device_finding(kind="invalid-global-read", access="read"), note("memcheck")]

    def test_tables_load_and_name_only_tools_that_exist(self):
        rows = run_gpu_tests.load_rows()
        self.assertGreater(len(rows), 10)
        for row in rows:
            self.assertIn(row["tool"], ("run", "memcheck", "streamcheck", "profile",
                                        "racecheck"), row["where"])
            self.assertIsNone(expectations.check_marker(row))

    def test_reduce_nosync_racecheck_rows(self):
        """The racecheck rows take cucheck racecheck's findings as it writes them
        (tests/scenarios/racecheck): race-raw and race-war at line 20, the second optional."""
        key = ("reduce_nosync", "racecheck")
        tools = ALL_TOOLS | {"racecheck"}
        raw, war = shared_race("race-raw", "read", "write"), shared_race("race-war", "write", "read")
        rc_note = {"type": "note", "tool": "racecheck",
                   "text": "racecheck (adaptive mode): kernels checked 1/1, launches "
                           "instrumented 1/1; 9 hazard(s) reported in 2 race event(s)"}
        self.assertTrue(self.judge(key, [raw, war, rc_note], tools=tools)[0])
        self.assertTrue(self.judge(key, [war, rc_note], tools=tools)[0])
        self.assertFalse(self.judge(key, [rc_note], tools=tools)[0])
        self.assertFalse(self.judge(key, [shared_race("race-raw", "read", "write", line=23),
                                          rc_note], tools=tools)[0])
        self.assertTrue(self.judge(("reduce_ok", "racecheck"), [rc_note], tools=tools)[0])
        self.assertFalse(self.judge(("reduce_ok", "racecheck"), [raw, rc_note], tools=tools)[0])

    def test_vecadd_passes_with_its_three_accesses(self):
        ok, notes = self.judge(("vecadd_oob", "memcheck"), self.vecadd())
        self.assertTrue(ok, notes)

    def test_vecadd_fails_on_any_departure(self):
        key = ("vecadd_oob", "memcheck")
        recs = self.vecadd()
        self.assertFalse(self.judge(key, recs[1:])[0])                  # the write missing
        self.assertFalse(self.judge(key, recs + [race()])[0])           # an extra finding
        wrong = copy.deepcopy(recs)
        wrong[0]["device"]["thread"] = [233, 0, 0]
        self.assertFalse(self.judge(key, wrong)[0])                     # wrong thread
        self.assertFalse(self.judge(key, recs, code=139)[0])            # crashed
        self.assertFalse(self.judge(key, recs[:-1])[0])                 # no note
        ok, notes = self.judge(key, recs, tools=ALL_TOOLS - {"memcheck"})
        self.assertFalse(ok)                                            # tool not in the build
        self.assertIn("no such tool", " ".join(notes))

    def test_stream_race_needs_both_sides(self):
        key = ("stream_race", "streamcheck")
        self.assertTrue(self.judge(key, [race(), note("streamcheck")])[0])
        self.assertFalse(self.judge(key, [race(other="fill"), note("streamcheck")])[0])
        self.assertFalse(self.judge(key, [race(frames=("main (stream_race.cu:55)",)),
                                          note("streamcheck")])[0])

    def test_pitch_fault_exit_status_and_optional_fault(self):
        key = ("pitch_fault", "memcheck")
        write = device_finding(kernel="fill_rows(float*, unsigned long, int, int)",
                               file="pitch_fault.cu", line=16)
        recs = [write, async_error(tool="memcheck"), note("memcheck")]
        self.assertTrue(self.judge(key, recs, code=1, native=(1, "", ""))[0])
        self.assertTrue(self.judge(key, [write, note("memcheck")], code=1,
                                   native=(1, "", ""))[0])
        self.assertFalse(self.judge(key, recs, code=0, native=(1, "", ""))[0])
        self.assertFalse(self.judge(key, recs, code=1, native=(0, "", ""))[0])

    def test_clean_twin(self):
        key = ("vecadd_ok", "memcheck")
        self.assertTrue(self.judge(key, [note("memcheck")])[0])
        self.assertFalse(self.judge(key, [device_finding(), note("memcheck")])[0])

    def test_a_row_naming_a_missing_tool_fails(self):
        with tempfile.TemporaryDirectory() as tmp:
            table = os.path.join(tmp, "expected.txt")
            with open(table, "w", encoding="utf-8") as fh:
                fh.write("reduce_nosync racecheck race block_sum - 0 -\n")
            rows = expectations.load(table, os.path.join(REPO, "examples"))
            write_report(self.report, [note("memcheck")])
            ok, notes = run_gpu_tests.judge_group(rows, "racecheck", (0, "", ""),
                                                  (0, "", SUMMARY % "memcheck", False),
                                                  self.report, ALL_TOOLS)
            self.assertFalse(ok)

    def test_table_errors(self):
        with tempfile.TemporaryDirectory() as tmp:
            table = os.path.join(tmp, "expected.txt")
            for text in ("a memcheck none - - 0 - thread=1.0.0\n",
                         "a memcheck none - - 0 -\na memcheck leak - - 0 -\n",
                         "a memcheck leak - - 0 - colour=red\n",
                         "a memcheck leak - - 0 - thread=1.0\n",
                         "a memcheck leak - - 0 -\na run none - - 1 -\n"):
                with open(table, "w", encoding="utf-8") as fh:
                    fh.write(text)
                with self.assertRaises(expectations.ExpectationError, msg=text):
                    expectations.load(table, tmp)


class MemcheckRunner(unittest.TestCase):
    """run_memcheck_gpu.judge_run over the real tests/gpu/memcheck/expected.txt."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.report = os.path.join(self.tmp.name, "r.jsonl")
        rows = run_memcheck_gpu.load_rows(os.path.join(HERE, "memcheck", "expected.txt"))
        self.groups = {(k[0], k[1]): m for k, m in run_memcheck_gpu.groups(rows)}

    def tearDown(self):
        self.tmp.cleanup()

    def judge(self, key, records, code=0, native=0, out="", mode="full", stderr=None):
        write_report(self.report, records)
        return run_memcheck_gpu.judge_run(self.groups[key], mode, native,
                                          (code, out, SUMMARY % "memcheck" if stderr is None
                                           else stderr, False),
                                          self.report)

    def test_every_device_row_fixes_its_line_and_kernel(self):
        for key, members in self.groups.items():
            for r in members:
                if r["device"]:
                    self.assertTrue(r["kernel"] and r["location"], r["where"])
                    self.assertTrue(run_memcheck_gpu.marker_ok(r), r["where"])
                    self.assertIn("size", r["values"], r["where"])

    def test_shared_overrun(self):
        key = ("mc_shared_overrun", ())
        f = device_finding("invalid-shared-write", "shift_left(float const*, float*)",
                           "mc_shared_overrun.cu", 11, (127, 0, 0), (2, 0, 0), 4, "write",
                           address="0x600")
        f["device"]["space"] = "shared"
        fault = async_error("_Z10shift_leftPKfPf", ("main (mc_shared_overrun.cu:24)",))
        self.assertTrue(self.judge(key, [f, fault, note("memcheck", "full")])[0])
        self.assertFalse(self.judge(key, [f, note("memcheck", "full")])[0])  # the fault is due
        for field, value in (("thread", [126, 0, 0]), ("address", "0x604"), ("line", 12)):
            bad = copy.deepcopy(f)
            bad["device"][field] = value
            self.assertFalse(self.judge(key, [bad, fault, note("memcheck", "full")])[0], field)
        self.assertFalse(self.judge(key, [f, fault, note("memcheck", "adaptive")])[0])

    def test_use_after_free_needs_the_load_and_the_store(self):
        key = ("mc_use_after_free", ())
        load = device_finding("use-after-free", "scale_inplace(float*, int, float)",
                              "mc_use_after_free.cu", 10, (0, 0, 0), (7, 0, 0), 4, "read")
        store = copy.deepcopy(load)
        store["device"]["access"] = "write"
        self.assertTrue(self.judge(key, [load, store, note("memcheck", "full")])[0])
        self.assertFalse(self.judge(key, [load, note("memcheck", "full")])[0])

    def test_on_error_stop_exits_1_at_the_printed_address(self):
        key = ("mc_invalid_device_free", ("--on-error=stop",))
        f = device_finding("invalid-device-free", "release_all(int*)",
                           "mc_invalid_device_free.cu", 11, (3, 0, 0), (0, 0, 0), 0, "none",
                           address="0x7f0000200000")
        out = "MC_EXPECT address=0x7f0000200000\n"
        recs = [f, note("memcheck", "full")]
        self.assertTrue(self.judge(key, recs, code=1, native=0, out=out)[0])
        self.assertFalse(self.judge(key, recs, code=0, native=0, out=out)[0])
        self.assertFalse(self.judge(key, recs, code=1, native=0,
                                    out="MC_EXPECT address=0x7f0000200100\n")[0])
        self.assertFalse(self.judge(key, recs, code=1, native=0, out="")[0])

    def test_misaligned_needs_its_fault_attributed(self):
        key = ("mc_misaligned", ())
        f = device_finding("misaligned-global-read", "parse_records(unsigned char const*, "
                           "int*, int)", "mc_misaligned.cu", 10, (0, 0, 0), (0, 0, 0), 4, "read")
        fault = async_error(kernel="_Z13parse_recordsPKhPii", tool="memcheck")
        self.assertTrue(self.judge(key, [f, fault, note("memcheck", "full")], code=1,
                                   native=1)[0])
        self.assertFalse(self.judge(key, [f, note("memcheck", "full")], code=1, native=1)[0])

    def test_clean_program_must_run_cleanly_natively(self):
        key = ("mc_clean", ())
        self.assertTrue(self.judge(key, [note("memcheck", "full")])[0])
        self.assertFalse(self.judge(key, [note("memcheck", "full")], code=1, native=1)[0])
        self.assertFalse(self.judge(key, [note("memcheck", "full")], stderr="")[0])

    def test_stress_runner_helper_still_works(self):
        ok, _ = run_memcheck_gpu.device_values_ok([device_finding()], "invalid-global-write",
                                                  {"thread": ["232.0.0"]}, "")
        self.assertTrue(ok)
        ok, _ = run_memcheck_gpu.device_values_ok([device_finding()], "invalid-global-write",
                                                  {"thread": ["231.0.0"]}, "")
        self.assertFalse(ok)


class SynccheckRunner(unittest.TestCase):
    """run_synccheck_gpu.judge_run over the real tests/gpu/synccheck/expected.txt, with findings
    shaped as cucheck synccheck writes them (tests/scenarios/synccheck)."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.report = os.path.join(self.tmp.name, "r.jsonl")
        rows = run_synccheck_gpu.load_rows(os.path.join(HERE, "synccheck", "expected.txt"))
        self.groups = {k[0]: m for k, m in run_memcheck_gpu.groups(rows)}

    def tearDown(self):
        self.tmp.cleanup()

    @staticmethod
    def finding(kind, kernel, file, line, severity="error"):
        return {"type": "finding", "tool": "synccheck", "kind": kind, "severity": severity,
                "message": "Barrier error", "count": 2,
                "device": {"kernel": kernel, "launch_id": 1, "stream": "0x0", "pc": "0x1a0",
                           "file": "/src/tests/gpu/synccheck/" + file, "line": line,
                           "block": [0, 0, 0], "thread": [0, 0, 0]},
                "frames": [{"pc": "0x0", "text": "main (%s:20)" % file}]}

    @staticmethod
    def note(mode, launches=2):
        return {"type": "note", "tool": "synccheck",
                "text": "synccheck (%s mode): kernels checked %d/1, launches instrumented %d/2; "
                        "2 misuse(s) reported in 1 event(s)" % (mode, min(launches, 1),
                                                                launches)}

    def judge(self, prog, records, mode="full", code=0, native=0):
        write_report(self.report, records)
        return run_synccheck_gpu.judge_run(self.groups[prog], mode, native,
                                           (code, "done\n", SUMMARY % "synccheck", False),
                                           self.report)

    def test_rows_name_their_bug_lines(self):
        for members in self.groups.values():
            for r in members:
                if r["device"]:
                    self.assertTrue(run_memcheck_gpu.marker_ok(r), r["where"])
                    self.assertTrue(os.path.exists(r["src"]), r["where"])

    def test_divergent_warp_either_form(self):
        for kind in ("sync-divergent-warp", "sync-after-exit"):
            f = self.finding(kind, "half_barrier(int*, int)", "sy_divergent_warp.cu", 12)
            self.assertTrue(self.judge("sy_divergent_warp", [f, self.note("full")])[0], kind)
        wrong_line = self.finding("sync-divergent-warp", "half_barrier(int*, int)",
                                  "sy_divergent_warp.cu", 13)
        self.assertFalse(self.judge("sy_divergent_warp", [wrong_line, self.note("full")])[0])
        self.assertFalse(self.judge("sy_divergent_warp", [self.note("full")])[0])

    def test_clean_and_the_note(self):
        self.assertTrue(self.judge("sy_reduce_clean", [self.note("adaptive")], "adaptive")[0])
        self.assertFalse(self.judge("sy_reduce_clean", [self.note("full")], "adaptive")[0])
        self.assertFalse(self.judge("sy_reduce_clean", [self.note("full", 0)])[0])
        f = self.finding("sync-shfl-mask", "shfl_half(int*, int)", "sy_shfl_mask.cu", 12,
                         "warning")
        self.assertFalse(self.judge("sy_shfl_clean", [f, self.note("full")])[0])
        self.assertTrue(self.judge("sy_shfl_mask", [f, self.note("full")])[0])


class AttributionRunner(unittest.TestCase):
    """run_attribution.judge_row over the real tests/gpu/attribution/expected.txt."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.report = os.path.join(self.tmp.name, "r.jsonl")
        self.rows = {r["example"]: r for r in expectations.load(
            os.path.join(HERE, "attribution", "expected.txt"), os.path.join(HERE, "attribution"))}

    def tearDown(self):
        self.tmp.cleanup()

    def judge(self, name, records, code=1, native=1, progress=False):
        write_report(self.report, records)
        return run_attribution.judge_row(self.rows[name], (native, "sync\n"),
                                         (code, "sync\n", SUMMARY % "run", False), self.report,
                                         progress)

    def test_exact_attribution(self):
        f = async_error(kernel="_Z9oob_writePfi", frames=("main (attr_oob.cu:18)",))
        self.assertTrue(self.judge("attr_oob", [f, note("run")])[0])
        self.assertFalse(self.judge("attr_oob", [f, note("run")], code=0)[0])
        self.assertFalse(self.judge("attr_oob", [f, async_error(), note("run")])[0])
        self.assertFalse(self.judge("attr_oob", [async_error(
            kernel="_Z9oob_writePfi", frames=("main (attr_oob.cu:19)",)), note("run")])[0])
        self.assertFalse(self.judge("attr_oob", [f])[0])

    def test_clean_same_output(self):
        self.assertTrue(self.judge("attr_clean", [note("run")], code=0, native=0)[0])
        ok, notes = run_attribution.judge_row(self.rows["attr_clean"], (0, "sync\n"),
                                              (0, "other\n", SUMMARY % "run", False),
                                              self.report)
        self.assertFalse(ok)


FAKE_NVCC = """
#!/usr/bin/env python3
# A stand-in for nvcc: writes an executable for -o that behaves as the real program would
# natively (exit status from FAKE_NATIVE_EXIT, a JSON map of program name to status).
import json, os, sys
out = sys.argv[sys.argv.index("-o") + 1]
name = os.path.basename(out)
code = json.loads(os.environ.get("FAKE_NATIVE_EXIT", "{}")).get(name, 0)
with open(out, "w") as fh:
    fh.write("#!/bin/sh\\necho %s: done\\nexit %d\\n" % (name, code))
os.chmod(out, 0o755)
"""

FAKE_CUCHECK = """
#!/usr/bin/env python3
# A stand-in for cucheck: --help lists the tools; a run writes the report FAKE_PLAN gives for
# "<program>.<tool>" (default: a clean run with the tool's note) and exits as planned (default:
# the program's own status).
import json, os, subprocess, sys
args = sys.argv[1:]
if args[:1] == ["dump"]:
    sys.exit(0)
if args == ["--help"]:
    print("usage: cucheck [global options] <tool> -- <program>\\n  run\\n  memcheck\\n"
          "  streamcheck\\n  profile")
    sys.exit(0)
out = args[args.index("--output") + 1]
tool = args[args.index(out) + 1]
prog = args[args.index("--") + 1:]
name = os.path.basename(prog[-1] if prog[0].endswith("python3") else prog[0])
plan = json.load(open(os.environ["FAKE_PLAN"])).get("%s.%s" % (name, tool), {})
res = subprocess.run(prog, capture_output=True, text=True)
sys.stdout.write(res.stdout)
mode = args[args.index("--mode") + 1] if "--mode" in args else None
notes = {"run": "run: tracked 1 context(s), 1 module(s), 1 kernel launch(es), 0 graph",
         "memcheck": "memcheck (%s mode): kernels checked 1/1, launches instrumented 1/1"
                     % (mode or "adaptive"),
         "streamcheck": "streamcheck (mode %s): ordered 2 kernel launch(es)" % (mode or "default")}
records = plan.get("records", [{"type": "note", "tool": tool, "text": notes[tool]}])
with open(out, "w") as fh:
    for rec in records:
        fh.write(json.dumps(rec) + "\\n")
sys.stderr.write(plan.get("stderr", "cucheck: %s: no findings in 1 process report\\n" % tool))
sys.exit(plan.get("exit", res.returncode))
"""


class WholeExamplesSuite(unittest.TestCase):
    """run_gpu_tests.main end to end, with a fake nvcc, fake programs and a fake cucheck."""

    def run_suite(self, plan, programs="cuda", only=None, torch=False):
        with tempfile.TemporaryDirectory() as tmp:
            nvcc, cucheck = os.path.join(tmp, "nvcc"), os.path.join(tmp, "cucheck")
            write_script(nvcc, FAKE_NVCC)
            write_script(cucheck, FAKE_CUCHECK)
            plan_path = os.path.join(tmp, "plan.json")
            with open(plan_path, "w", encoding="utf-8") as fh:
                json.dump(plan, fh)
            saved = (run_gpu_tests.gpu_present, run_gpu_tests.find_tool,
                     run_gpu_tests.gencode_flags, run_gpu_tests.torch_with_cuda)
            env = dict(os.environ)
            os.environ.update({"FAKE_PLAN": plan_path, "FAKE_NATIVE_EXIT": json.dumps(
                {"pitch_fault": 1})})
            run_gpu_tests.gpu_present = lambda: True
            run_gpu_tests.find_tool = lambda name, cands: nvcc if name == "nvcc" else None
            run_gpu_tests.gencode_flags = lambda: []
            run_gpu_tests.torch_with_cuda = lambda python: (torch, "no torch in python3")
            argv = ["--cucheck", cucheck, "--build-dir", tmp, "--programs", programs]
            for name in only or []:
                argv += ["--only", name]
            out = io.StringIO()
            try:
                with contextlib.redirect_stdout(out):
                    code = run_gpu_tests.main(argv)
            finally:
                (run_gpu_tests.gpu_present, run_gpu_tests.find_tool,
                 run_gpu_tests.gencode_flags, run_gpu_tests.torch_with_cuda) = saved
                os.environ.clear()
                os.environ.update(env)
            return code, out.getvalue()

    def vecadd_plan(self, **override):
        plan = {"records": [device_finding(), device_finding(kind="invalid-global-read",
                                                             access="read"),
                            device_finding(kind="invalid-global-read", access="read"),
                            note("memcheck")]}
        plan.update(override)
        return {"vecadd_oob.memcheck": plan}

    def test_clean_and_buggy_pass(self):
        code, out = self.run_suite(self.vecadd_plan(), only=["vecadd_oob", "vecadd_ok",
                                                             "pitch_ok"])
        self.assertEqual(code, 0, out)
        self.assertIn("4 passed, 0 failed, 0 skipped", out)

    def test_a_crash_fails(self):
        code, out = self.run_suite(self.vecadd_plan(exit=139), only=["vecadd_oob"])
        self.assertEqual(code, 1, out)
        self.assertIn("killed by signal 11", out)

    def test_no_report_fails(self):
        code, out = self.run_suite({"vecadd_ok.memcheck": {
            "records": [], "stderr": "cucheck: memcheck: no findings in 0 process reports\n"}},
            only=["vecadd_ok"])
        self.assertEqual(code, 1, out)

    def test_what_the_fake_runs_without_findings_fails(self):
        code, out = self.run_suite({}, only=["vecadd_oob"])
        self.assertEqual(code, 1, out)
        self.assertIn("MISSING invalid-global-write", out)

    def test_a_crash_on_a_clean_program_fails(self):
        """A crashed cucheck that wrote no report used to pass a clean program."""
        code, out = self.run_suite({"vecadd_ok.memcheck": {
            "records": [], "stderr": "Segmentation fault\n", "exit": 139}}, only=["vecadd_ok"])
        self.assertEqual(code, 1, out)
        self.assertIn("killed by signal 11", out)

    def test_torch_rows_skip_without_torch(self):
        code, out = self.run_suite({}, programs="python")
        self.assertEqual(code, 77, out)
        self.assertIn("| SKIP |", out)
        self.assertNotIn("| PASS |", out)


class StreamcheckScripts(unittest.TestCase):
    """tests/gpu/streamcheck/run_api_mode.sh end to end, with a fake nvcc and a fake cucheck:
    a race needs both its sides; a crash fails the script."""

    def run_script(self, plan):
        with tempfile.TemporaryDirectory() as tmp:
            bin_dir = os.path.join(tmp, "bin")
            os.makedirs(bin_dir)
            write_script(os.path.join(bin_dir, "nvcc"), FAKE_NVCC)
            write_script(os.path.join(tmp, "cucheck"), FAKE_CUCHECK)
            plan_path = os.path.join(tmp, "plan.json")
            with open(plan_path, "w", encoding="utf-8") as fh:
                json.dump(plan, fh)
            env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""),
                       CUCHECK=os.path.join(tmp, "cucheck"), OUT=os.path.join(tmp, "out"),
                       SC_WORK=os.path.join(tmp, "work"), FAKE_PLAN=plan_path,
                       PYTHON=sys.executable)
            res = subprocess.run(["bash", os.path.join("tests", "gpu", "streamcheck",
                                                       "run_api_mode.sh")],
                                 cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
            return res.returncode, res.stdout + res.stderr

    def race_plan(self, **race_args):
        return {"stream_race.streamcheck": {"records": [race(**race_args),
                                                        note("streamcheck", "api")]}}

    def test_both_sides_right_passes(self):
        code, out = self.run_script(self.race_plan())
        self.assertEqual(code, 0, out)
        self.assertIn("streamcheck api-mode GPU checks: PASS", out)

    def test_one_side_wrong_fails(self):
        code, out = self.run_script(self.race_plan(other="consume(float const*, float*, int)"))
        self.assertEqual(code, 1, out)
        self.assertIn("other side consume", out)

    def test_crash_fails(self):
        plan = self.race_plan()
        plan["stream_ok.streamcheck"] = {"records": [], "exit": 139}
        code, out = self.run_script(plan)
        self.assertEqual(code, 1, out)
        self.assertIn("killed by signal 11", out)


COLLECT_ENV = """PyTorch version: 2.11.0+cu130
Is debug build: False
CUDA used to build PyTorch: 13.0
Is CUDA available: True
CUDA runtime version: 13.0.88
CUDA_MODULE_LOADING set to: LAZY
GPU models and configuration: GPU 0: NVIDIA H200
Nvidia driver version: 580.159.04
"""


def doctor_json(environment=True, module_loading=None, verdict=True):
    doc = {"tool": "doctor", "nvcc": "Cuda compilation tools, release 13.0, V13.0.88",
           "driver": {"version": "580.159.04", "gpus": [{"name": "NVIDIA H200"}]},
           "python": {"torch": {"version": "2.11.0+cu130", "cuda": "13.0",
                                "cuda_available": "True"}, "packages": []},
           "verdicts": []}
    if environment:
        doc["environment"] = {"CUDA_MODULE_LOADING": module_loading}
    if verdict:
        doc["verdicts"].append({"level": "INFO", "topic": "environment",
                                "subject": "CUDA_MODULE_LOADING", "text": "unset: lazy"})
    return doc


class ComparisonScripts(unittest.TestCase):
    """doctor/compare_collect_env.py and inspect/compare_cuobjdump.py can fail."""

    def collect_env(self, doc, text=COLLECT_ENV):
        with tempfile.TemporaryDirectory() as tmp:
            env_path, doc_path = os.path.join(tmp, "env.txt"), os.path.join(tmp, "doc.json")
            with open(env_path, "w", encoding="utf-8") as fh:
                fh.write(text)
            with open(doc_path, "w", encoding="utf-8") as fh:
                json.dump(doc, fh)
            res = subprocess.run([sys.executable, os.path.join(HERE, "doctor",
                                                               "compare_collect_env.py"),
                                  env_path, doc_path], capture_output=True, text=True)
            return res.returncode, res.stdout

    def test_collect_env_module_loading(self):
        self.assertEqual(self.collect_env(doctor_json())[0], 0)
        code, out = self.collect_env(doctor_json(environment=False))
        self.assertEqual(code, 1, out)
        self.assertIn("GAP   CUDA_MODULE_LOADING", out)
        self.assertEqual(self.collect_env(doctor_json(module_loading="EAGER"))[0], 1)
        self.assertEqual(self.collect_env(doctor_json(verdict=False))[0], 1)
        self.assertEqual(self.collect_env(doctor_json(module_loading="EAGER"), COLLECT_ENV.replace(
            "set to: LAZY", "set to: EAGER"))[0], 0)
        self.assertEqual(self.collect_env(doctor_json(), "not collect_env output\n")[0], 2)

    def cuobjdump(self, listing, cucheck_entries, files=("lib.so",)):
        with tempfile.TemporaryDirectory() as tmp:
            bin_dir = os.path.join(tmp, "bin")
            os.makedirs(bin_dir)
            write_script(os.path.join(bin_dir, "cuobjdump"),
                         "#!/bin/sh\n[ \"$1\" = --list-elf ] && printf '%s'\nexit 0\n"
                         % listing.replace("'", ""))
            cucheck = os.path.join(tmp, "cucheck")
            write_script(cucheck, "#!/bin/sh\necho '%s'\n" % json.dumps(
                {"files": [{"entries": [{"kind": k, "arch": a} for k, a in cucheck_entries]}]}))
            env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
            res = subprocess.run([sys.executable, os.path.join(HERE, "inspect",
                                                               "compare_cuobjdump.py"), cucheck]
                                 + list(files), capture_output=True, text=True, env=env)
            return res.returncode, res.stdout

    def test_cuobjdump_comparison(self):
        listing = "ELF file    1: lib.1.sm_90.cubin\nELF file    2: lib.2.sm_80.cubin\n"
        self.assertEqual(self.cuobjdump(listing, [("sass", "sm_90"), ("sass", "sm_80")])[0], 0)
        self.assertEqual(self.cuobjdump(listing, [("sass", "sm_90")])[0], 1)
        code, out = self.cuobjdump("", [])
        self.assertEqual(code, 1, out)               # nothing on either side is no agreement
        self.assertIn("nothing compared", out)
        self.assertEqual(self.cuobjdump(listing, [], files=())[0], 2)   # no input at all


class RealCucheck(unittest.TestCase):
    """Real reports from the cucheck binary (CUCHECK_BIN): the runners read what it writes."""

    def setUp(self):
        if not os.access(CUCHECK_BIN, os.X_OK):
            self.skipTest("CUCHECK_BIN does not name the cucheck binary")
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def replay(self, tool, scenario_text):
        scn = os.path.join(self.tmp.name, "s.scn")
        with open(scn, "w", encoding="utf-8") as fh:
            fh.write(textwrap.dedent(scenario_text).lstrip())
        res = subprocess.run([CUCHECK_BIN, "replay", "--tool", tool, "--format", "json", scn],
                             capture_output=True, text=True)
        self.assertEqual(res.returncode, 0, res.stderr)
        report = os.path.join(self.tmp.name, "r.jsonl")
        with open(report, "w", encoding="utf-8") as fh:
            fh.write(res.stdout)
        records, error = verdict.read_report(report)
        self.assertIsNone(error)
        return records

    def test_memcheck_device_finding(self):
        records = self.replay("memcheck", """
            host_stack id=a1 frame="main (vecadd_oob.cu:33)"
            host_stack id=l1 frame="main (vecadd_oob.cu:13)"
            alloc mem_kind=device address=a size=4000 callsite=a1
            launch name=_Z6vecaddPKfS0_Pfi grid=4 block=256 stream=legacy launch_id=1 callsite=l1 flags=0x4
            device_access_error launch_id=1 kernel=_Z6vecaddPKfS0_Pfi pc=0x70 file=vecadd_oob.cu line=13 block=3,0,0 thread=232,0,0 address=a+4000 size=4 flags=0x2 space=1 violation=1 count=24
            device_access_error launch_id=1 kernel=_Z6vecaddPKfS0_Pfi pc=0x90 file=vecadd_oob.cu line=14 block=3,0,0 thread=232,0,0 address=a+4000 size=4 flags=0x1 space=1 violation=1 count=24
            free mem_kind=device address=a
            process_exit reason=normal code=0
            """)
        self.assertIsNone(verdict.check_note(records, "memcheck", "adaptive", "checked"))
        self.assertIsNotNone(verdict.check_note(records, "memcheck", "full", "checked"))
        found = verdict.report_findings(records)
        exp = Expect("invalid-global-write", "vecadd", "vecadd_oob.cu:13",
                     {"thread": ["232.0.0"], "block": ["3.0.0"], "size": ["4"],
                      "access": ["write"]}, device=True)
        ok, notes = findings.match_set(found, [exp])
        self.assertFalse(ok)  # the read at line 14 is unexpected
        self.assertTrue(any(n.startswith("UNEXPECTED invalid-global-read") for n in notes),
                        notes)
        read = Expect("invalid-global-read", "vecadd", "vecadd_oob.cu:14", {"access": ["read"]})
        self.assertTrue(findings.match_set(found, [exp, read])[0])
        # the write's line is in a host frame (l1) too, but not its device line: no match
        self.assertFalse(findings.match_set(found, [exp, Expect(
            "invalid-global-read", "vecadd", "vecadd_oob.cu:13")])[0])

    def test_streamcheck_race_sides(self):
        records = self.replay("streamcheck", """
            stream_create stream=s1 flags=0x1
            stream_create stream=s2 flags=0x1
            alloc mem_kind=device address=buf size=4096
            launch name=produce grid=1 block=256 stream=s1 launch_id=1
            access launch_id=1 address=buf size=4096 flags=0x2
            launch name=consume grid=1 block=256 stream=s2 launch_id=2
            access launch_id=2 address=buf size=4096 flags=0x1
            """)
        self.assertIsNone(verdict.check_note(records, "streamcheck", "default", "launches"))
        found = verdict.report_findings(records)
        good = Expect.from_spec("kind=race;kernel=consume;access=read;other=produce;"
                                "other-access=write")
        self.assertTrue(findings.match_set(found, [good])[0])
        for spec in ("kind=race;kernel=produce;other=consume",
                     "kind=race;kernel=consume;other=produce;other-access=read"):
            self.assertFalse(findings.match_set(found, [Expect.from_spec(spec)])[0], spec)

    def test_tables_and_readme_name_only_tools_that_exist(self):
        """Every tool the expectation tables and examples/README.md name is one `cucheck --help`
        lists among its tools (the README named racecheck, which does not exist)."""
        tools = run_gpu_tests.available_tools(CUCHECK_BIN)
        self.assertIn("memcheck", tools)
        for row in run_gpu_tests.load_rows():
            self.assertIn(row["tool"], tools, row["where"])
        for line, cell in readme_tool_cells(os.path.join(REPO, "examples", "README.md")):
            for tool in re.findall(r"`([a-z][a-z0-9-]*)`", cell):
                self.assertIn(tool, tools, line.strip()[:80])
        for table, _ in run_gpu_tests.TABLES[:1]:
            with open(os.path.join(REPO, table), encoding="utf-8") as fh:
                for line in fh:
                    if line.startswith("#") and "racecheck" in line:
                        self.fail("%s names racecheck: %s" % (table, line.strip()))

    def test_summary_line_and_exit_status(self):
        report = os.path.join(self.tmp.name, "live.jsonl")
        res = subprocess.run([CUCHECK_BIN, "--format", "json", "--output", report, "memcheck",
                              "--", "sh", "-c", "echo hi; exit 3"], capture_output=True,
                             text=True, timeout=120)
        self.assertEqual(res.returncode, 3, res.stderr)
        self.assertEqual(verdict.check_collected(res.stderr), [], res.stderr)
        self.assertEqual(verdict.check_exit(res.returncode, res.stderr, 3), [])
        self.assertIsNone(verdict.read_report(report)[1])
        missing = subprocess.run([CUCHECK_BIN, "--format", "json", "--output", report, "run",
                                  "--", os.path.join(self.tmp.name, "no-such-program")],
                                 capture_output=True, text=True, timeout=120)
        self.assertIn("did not run the program",
                      " ".join(verdict.check_exit(missing.returncode, missing.stderr, 0)))


class SkipCodes(unittest.TestCase):
    """Tests that need nvcc say skipped through ctest's skip code, not passed."""

    def wrapper(self, script):
        with tempfile.TemporaryDirectory() as tmp:
            prog = os.path.join(tmp, "t")
            write_script(prog, "#!/bin/sh\n" + script)
            res = subprocess.run(["bash", os.path.join(REPO, "tests", "run_skippable.sh"), prog],
                                 capture_output=True, text=True)
            return res.returncode, res.stdout

    def test_run_skippable(self):
        self.assertEqual(self.wrapper("echo 'skipped: nvcc not found'; exit 0"),
                         (77, "skipped: nvcc not found\n"))
        self.assertEqual(self.wrapper("echo 'skipped: nvcc not found'; exit 1")[0], 1)
        self.assertEqual(self.wrapper("echo 'all 3 checks passed'; exit 0")[0], 0)
        self.assertEqual(self.wrapper("echo 'not skipped: x'; exit 0")[0], 0)
        self.assertEqual(self.wrapper("exit 3")[0], 3)

    def test_ctest_reports_a_unit_test_without_nvcc_as_skipped(self):
        build, ctest = os.environ.get("CUCHECK_BUILD_DIR"), os.environ.get("CUCHECK_CTEST")
        if not build or not ctest or not os.path.isdir(build):
            self.skipTest("CUCHECK_BUILD_DIR / CUCHECK_CTEST not set (run through ctest)")
        path = os.pathsep.join(d for d in os.environ.get("PATH", "").split(os.pathsep)
                               if d and not os.access(os.path.join(d, "nvcc"), os.X_OK))
        env = dict(os.environ, PATH=path)
        res = subprocess.run([ctest, "--test-dir", build, "-R", r"^unit\.test_kparams_nvcc$",
                              "--output-on-failure"], capture_output=True, text=True, env=env,
                             timeout=300)
        if "No tests were found" in res.stdout:
            self.skipTest("this build has no unit.test_kparams_nvcc")
        self.assertIn("Skipped", res.stdout, res.stdout + res.stderr)
        self.assertNotIn("Passed", res.stdout, res.stdout)


class MultiGpuRunner(unittest.TestCase):
    """run_multigpu: its cases' specs parse, a per-rank finding must name exactly its rank, and
    a profile run of several ranks must leave one merged trace with a process row per rank."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.report = os.path.join(self.tmp.name, "r.jsonl")
        self.trace = os.path.join(self.tmp.name, "t.json")
        self.cases = {c["name"]: c for c in run_multigpu.CASES}

    def tearDown(self):
        self.tmp.cleanup()

    def judge(self, name, tool, ranks, records, summary):
        write_report(self.report, records)
        return run_multigpu.judge(self.cases[name], tool, ranks, (0, "", summary, False),
                                  self.report, self.trace)

    def test_every_case_parses(self):
        for c in run_multigpu.CASES:
            if c["expect"]:
                findings.Expect.from_spec(c["expect"])
            self.assertTrue(c["tools"], c["name"])
            self.assertTrue(set(c["tools"]) <= set(run_multigpu.ALL_TOOLS), c["name"])

    def test_rank_of_a_finding(self):
        summary = "cucheck: memcheck: 1 error, 0 warnings in 3 process reports (ranks 0,1)\n"
        f = device_finding(kind="invalid-global-read", kernel="scale_rank(float const*, float*, "
                           "int, float)", file="/x/mg_rank_oob.cu", line=17, access="read")
        f["ranks"] = [1]
        self.assertTrue(self.judge("rank1-oob", "memcheck", 2, [f, note("memcheck")], summary)[0])
        f["ranks"] = [0, 1]
        ok, notes = self.judge("rank1-oob", "memcheck", 2, [f, note("memcheck")], summary)
        self.assertFalse(ok)
        self.assertIn("names ranks [0, 1]", "; ".join(notes))
        del f["ranks"]
        self.assertFalse(self.judge("rank1-oob", "memcheck", 2, [f, note("memcheck")],
                                    summary)[0])
        self.assertFalse(self.judge("rank1-oob", "memcheck", 2, [f, note("memcheck")],
                                    summary.replace("3 process reports", "1 process report"))[0])

    def test_merged_trace_ranks(self):
        summary = "cucheck: profile: no findings in 3 process reports\n"
        meta = [{"ph": "M", "name": "process_name", "pid": p, "args": {"name": n}}
                for p, n in ((1, "rank 0: pid 10 python"), (2, "rank 1: pid 11 python"),
                             (3, "pid 9 python"))]
        with open(self.trace, "w", encoding="utf-8") as fh:
            json.dump({"traceEvents": meta}, fh)
        self.assertTrue(self.judge("ranks-clean", "profile", 2, [note("profile")], summary)[0])
        with open(self.trace, "w", encoding="utf-8") as fh:
            json.dump({"traceEvents": meta[:1]}, fh)
        self.assertFalse(self.judge("ranks-clean", "profile", 2, [note("profile")], summary)[0])
        os.remove(self.trace)
        ok, notes = self.judge("ranks-clean", "profile", 2, [note("profile")], summary)
        self.assertFalse(ok)
        self.assertIn("no merged trace", "; ".join(notes))


if __name__ == "__main__":
    unittest.main(verbosity=1)
