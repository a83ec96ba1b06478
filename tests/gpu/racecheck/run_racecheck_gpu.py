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
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.dirname(HERE)
sys.path.insert(0, GPU)
sys.path.insert(0, os.path.join(GPU, "memcheck"))
import run_memcheck_gpu as table  # noqa: E402  (the expected.txt reader and the suite's run)
import verdict  # noqa: E402


def load_rows(path):
    rows = table.load_rows(path)
    for row in rows:  # the programs are this folder's
        prog = row["prog"]
        row["src"] = os.path.join(HERE, prog if prog.endswith(".py") else prog + ".cu")
    return rows


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
    return table.suite_main("racecheck", __doc__, HERE, load_rows, judge_run, argv)


if __name__ == "__main__":
    sys.exit(main())
