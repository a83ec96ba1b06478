#!/usr/bin/env python3
"""memcheck's GPU tests: builds the programs of tests/gpu/memcheck/ (and the memcheck examples)
with nvcc -lineinfo, runs each natively and under `cucheck --format json --output FILE memcheck`
in --mode full and in the default adaptive mode, and judges every run of expected.txt
(tests/gpu/verdict.py): cucheck exits with the program's native status (1 with --on-error
stop), did not crash or hang, collected a process report, the report parses, memcheck's note
names the mode it ran in (and, for a program with a device bug, a checked launch), and the
findings are exactly the program's rows: kind, kernel, device line, thread, block, size,
address (or the address the program printed as "MC_EXPECT address=..."), access; any other
error or warning fails. Clean programs must report nothing and run cleanly natively too.
Prints a markdown table with the time of each run. Without a GPU: prints SKIPPED and exits 77.

PyTorch scripts (rows naming a .py program) run with --python (default: this interpreter) and
are SKIPPED, never passed, where it has no torch with CUDA.

usage: run_memcheck_gpu.py --cucheck BIN [--build-dir DIR] [--modes full,adaptive] [--python PY]
Standard library only."""
import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(GPU))
sys.path.insert(0, GPU)
import findings  # noqa: E402
import run_gpu_tests  # noqa: E402
import verdict  # noqa: E402

VALUE_KEYS = ("thread", "block", "size", "address", "access", "repeats")


class TableError(Exception):
    """A malformed expected.txt (the message names file and line)."""


def load_rows(path):
    rows = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            where = "%s:%d" % (path, number)
            f = text.split()
            if len(f) not in (6, 7):
                raise TableError("%s: expected 6 or 7 columns, found %d" % (where, len(f)))
            prog, kind, kernel, loc, what, opts = f[:6]
            values, optional = parse_values(f[6], where) if len(f) == 7 else ({}, False)
            if what not in ("device", "host"):
                raise TableError("%s: column 5 is 'device' or 'host', not %r" % (where, what))
            src_dir = HERE
            if prog.startswith("examples/"):
                prog = prog[len("examples/"):]
                src_dir = os.path.join(REPO, "examples")
            all_opts = [] if opts == "-" else opts.split(",")
            # "modes=full" (a '+'-joined list) limits the modes a row runs in; not a memcheck option
            modes = [o[len("modes="):].split("+") for o in all_opts if o.startswith("modes=")]
            # a .py program is a PyTorch script run with python3 (SKIPPED without torch + CUDA)
            src = os.path.join(src_dir, prog if prog.endswith(".py") else prog + ".cu")
            row = {"prog": prog, "src": src, "kind": kind,
                   "kernel": None if kernel == "-" else kernel,
                   "location": None if loc == "-" else loc, "device": what == "device",
                   "opts": [o for o in all_opts if not o.startswith("modes=")],
                   "modes": modes[0] if modes else None, "values": values,
                   "optional": optional, "where": where}
            if kind == "none" and (set(values) - {"repeats"} or optional or what == "device"):
                raise TableError("%s: a 'none' row is a host row without values but repeats="
                                 % where)
            if kind != "none":
                try:
                    expect_of(row, "")
                except findings.SpecError as err:
                    raise TableError("%s: %s" % (where, err))
            rows.append(row)
    for key, members in groups(rows):
        if len(members) > 1 and any(r["kind"] == "none" for r in members):
            raise TableError("%s: a 'none' row must be the only row of %s with options %s"
                             % (members[0]["where"], key[0], " ".join(key[1]) or "-"))
    return rows


def parse_values(text, where):
    """'thread=1.0.0;size=4;address=0x200|0x600;optional' -> ({key: [alternatives]}, optional)."""
    values, optional = {}, False
    for item in text.split(";"):
        if item == "optional":
            optional = True
            continue
        key, eq, val = item.partition("=")
        if not eq or key not in VALUE_KEYS or not val:
            raise TableError("%s: bad value %r (thread=, block=, size=, address=, access=, "
                             "repeats=, optional)" % (where, item))
        values[key] = val.split("|")
    return values, optional


def groups(rows):
    """[((program, options, modes), [rows])]: the rows one cucheck run is judged by."""
    out, index = [], {}
    for row in rows:
        key = (row["prog"], tuple(row["opts"]), tuple(row["modes"] or ()))
        if key not in index:
            index[key] = len(out)
            out.append((key, []))
        out[index[key]][1].append(row)
    return out


def printed_address(output):
    """The address a program printed as 'MC_EXPECT address=0x...', or None."""
    for line in output.splitlines():
        if line.startswith("MC_EXPECT address="):
            return line.split("=", 1)[1].strip()
    return None


def expect_of(row, output):
    """The findings.Expect of a row; address=printed becomes the address in output (an
    impossible address when the program printed none, so that the row cannot match)."""
    values = dict(row["values"])
    if values.get("address") == ["printed"]:
        values["address"] = [printed_address(output) or "0x0"]
    return findings.Expect(row["kind"], row["kernel"], row["location"], values,
                           optional=row["optional"], device=row["device"])


def device_values_ok(found, kind, values, output):
    """(ok, why): some finding of kind has every expected value (used by the stress runner)."""
    if not values:
        return True, ""
    want = dict(values)
    if want.get("address") == ["printed"]:
        addr = printed_address(output)
        if addr is None:
            return False, "the program printed no MC_EXPECT address"
        want["address"] = [addr]
    seen = []
    for f in found:
        if f.get("kind") not in kind.split("|"):
            continue
        d = f.get("device") or {}
        if all(any(findings.same_value(k, d.get(k), w) for w in alts) for k, alts in want.items()):
            return True, ""
        seen.append({k: d.get(k) for k in want})
    return False, "values %s expected, found %s" % (want, seen)


def marker_ok(row):
    if not row["location"]:
        return True
    base, _, line = row["location"].rpartition(":")
    src = os.path.join(os.path.dirname(row["src"]), base)
    try:
        with open(src, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
        return "BUG" in lines[int(line) - 1]
    except (OSError, ValueError, IndexError):
        return False


def want_exit(members, native_code):
    """cucheck's exit status for a run: 1 after --on-error stop, else the program's own."""
    if any(o == "--on-error=stop" for o in members[0]["opts"]):
        return 1
    return native_code


def judge_run(members, mode, native_code, result, report):
    """(ok, notes) for one run of one group in one mode; result: (exit, stdout, stderr, timed
    out) of the cucheck run."""
    code, out, err, timed_out = result
    expects = [expect_of(r, out) for r in members if r["kind"] != "none"]
    if any(r["values"].get("address") == ["printed"] for r in members) and \
            printed_address(out) is None:
        return False, ["the program printed no MC_EXPECT address under cucheck"]
    need = "checked" if any(r["device"] for r in members) else None
    ok, notes = verdict.judge(code, err, report, "memcheck", expects,
                              want_exit(members, native_code), mode=mode, need=need,
                              timed_out=timed_out)
    for r in members:
        want = r["values"].get("repeats")
        if want and mode == "adaptive":
            records, _ = verdict.read_report(report)
            said = "(%s more repeated a checked launch's" % want[0]
            if not any(said in str(x.get("text", "")) for x in records or []
                       if x.get("type") == "note"):
                ok = False
                notes.append("the note does not say %s" % said)
    if not expects and native_code != 0:
        # a clean twin must run cleanly natively too (one that faults is no twin)
        ok = False
        notes.append("the clean program exits %d natively" % native_code)
    return ok, notes


def suite_main(tool, doc, here, load, judge, argv=None):
    """The GPU suite of one device tool (memcheck, racecheck): builds the programs of `here`'s
    expected.txt (rows read by `load`), runs each natively and under `cucheck --format json
    --output FILE <tool> --mode M [options]` in each mode, judges every run with
    `judge(members, mode, native exit, result, report)`, prints the markdown table; exit 0 when
    every run passed, 1 otherwise, 77 without a GPU or nvcc, 2 on bad use."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--cucheck", required=True)
    ap.add_argument("--build-dir", default=os.path.join(here, "build"))
    ap.add_argument("--modes", default="full,adaptive")
    ap.add_argument("--timeout", type=int, default=run_gpu_tests.RUN_TIMEOUT_S,
                    help="seconds one cucheck run may take")
    ap.add_argument("--python", help="the Python that runs the PyTorch scripts (default: this one)")
    args = ap.parse_args(argv)
    if not run_gpu_tests.gpu_present():
        print("SKIPPED: no GPU")
        return 77
    nvcc, status = run_gpu_tests.build_tools(args.cucheck, "%s test programs" % tool)
    if not nvcc:
        return status
    try:
        rows = load(os.path.join(here, "expected.txt"))
    except (OSError, TableError) as err:
        print("error: %s" % err)
        return 2
    bin_dir = os.path.join(args.build_dir, "bin")
    errors = run_gpu_tests.build(nvcc, sorted({r["src"] for r in rows
                                               if not r["src"].endswith(".py")}), bin_dir,
                                 run_gpu_tests.gencode_flags())
    python = args.python or sys.executable or "python3"
    torch_ok, torch_why = (False, "no PyTorch script in the table")
    if any(r["src"].endswith(".py") for r in rows):
        torch_ok, torch_why = run_gpu_tests.torch_with_cuda(python)
    skipped = 0
    table, failures = [], []
    failures += ["%s: %s has no BUG marker" % (r["where"], r["location"])
                 for r in rows if not marker_ok(r)]
    native = {}
    for (name, opts, _), members in groups(rows):
        if errors.get(name):
            failures.append("%s: build failed: %s" % (name, errors[name][:300]))
            continue
        script = members[0]["src"].endswith(".py")
        if script and not torch_ok:
            table.append((name, "-", "+".join(r["kind"] for r in members), "SKIPPED", "-", "-",
                          "-", "-", torch_why))
            skipped += 1
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
            cmd = [args.cucheck, "--format", "json", "--output", report, tool,
                   "--mode", mode] + [o for opt in opts for o in opt.split("=", 1)]
            t0 = time.time()
            sys.stderr.write("run: %s --mode %s %s\n" % (name, mode, " ".join(opts)))
            sys.stderr.flush()  # where a run that never ends was, when the suite is stopped
            result = run_gpu_tests.run_timed(cmd + ["--"] + prog, timeout=args.timeout)
            secs = time.time() - t0
            with open(report + ".log", "w", encoding="utf-8") as fh:
                fh.write(result[1] + result[2])
            ok, notes = judge(members, mode, native[name][0], result, report)
            records, _ = verdict.read_report(report)
            detail = "; ".join(findings.summarize(f) + " x%s" % f.get("count", 1)
                               for f in findings.serious(verdict.report_findings(records)))
            if not ok:
                failures.append("%s [%s %s]: %s (exit %d; log %s.log)" % (
                    name, mode, " ".join(opts), "; ".join(notes), result[0], report))
            table.append((name, mode + (" " + " ".join(opts) if opts else ""), kinds,
                          "PASS" if ok else "FAIL", "%.2f" % native[name][1], "%.2f" % secs,
                          str(native[name][0]), str(result[0]), detail or "; ".join(notes)))
    print("| program | mode | expected | result | native s | cucheck s | native exit | cucheck exit | findings |")
    print("|---|---|---|---|---|---|---|---|---|")
    for t in table:
        print("| %s |" % " | ".join(t))
    for f in failures:
        print("FAIL: %s" % f)
    print("%d passed, %d failed, %d skipped" % (sum(1 for t in table if t[3] == "PASS"),
                                                len(failures), skipped))
    return 1 if failures else 0


def main(argv=None):
    return suite_main("memcheck", __doc__, HERE, load_rows, judge_run, argv)


if __name__ == "__main__":
    sys.exit(main())
