#!/usr/bin/env python3
"""initcheck's GPU tests: builds the programs of tests/gpu/initcheck/ with nvcc -lineinfo, runs
each natively and under `cucheck --format json --output FILE initcheck --mode full|adaptive`,
and judges every run of expected.txt (tests/gpu/verdict.py, rows as
tests/gpu/memcheck/expected.txt): cucheck exits with the program's native status, did not crash
or hang, collected a process report that parses, its closing note says it checked launches in
that mode, and the findings are exactly the program's rows (kind, kernel, the device line of a
read or a host frame of a copy or free); clean programs must report nothing and run cleanly
natively too. PyTorch scripts (rows naming a .py program) run with --python. Prints a markdown
table with the time of each run. Without a GPU: prints SKIPPED and exits 77.

usage: run_initcheck_gpu.py --cucheck BIN [--build-dir DIR] [--modes full,adaptive] [--python PY]
Standard library only."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.dirname(HERE)
sys.path.insert(0, GPU)
sys.path.insert(0, os.path.join(GPU, "memcheck"))
import run_memcheck_gpu as table  # noqa: E402  (the expected.txt reader and the suite's run)
import findings  # noqa: E402
import verdict  # noqa: E402


def load_rows(path):
    rows = table.load_rows(path)
    for row in rows:  # the programs are this folder's
        prog = row["prog"]
        row["src"] = os.path.join(HERE, prog if prog.endswith(".py") else prog + ".cu")
    return rows


def expect_of(row):
    """A row's findings.Expect: a device read at its line, or a host finding with a host frame;
    no address (it differs per run)."""
    return findings.Expect(row["kind"], row["kernel"], row["location"], dict(row["values"]),
                           optional=row["optional"], device=row["device"])


def judge_run(members, mode, native_code, result, report):
    code, out, err, timed_out = result
    expects = [expect_of(r) for r in members if r["kind"] != "none"]
    ok, notes = verdict.judge(code, err, report, "initcheck", expects, native_code, mode=mode,
                              need="checked", timed_out=timed_out)
    if not expects and native_code != 0:
        ok = False
        notes.append("the clean program exits %d natively" % native_code)
    return ok, notes


def main(argv=None):
    return table.suite_main("initcheck", __doc__, HERE, load_rows, judge_run, argv)


if __name__ == "__main__":
    sys.exit(main())
