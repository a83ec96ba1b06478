#!/usr/bin/env python3
"""memcheck's GPU tests: builds the programs of tests/gpu/memcheck/ (and the memcheck examples)
with nvcc -lineinfo, runs each natively and under `cucheck memcheck` in --mode full and in the
default adaptive mode, and checks every row of expected.txt: the finding's kind, kernel and
file:line (tests/gpu/findings.py), for device-side rows that it carries thread, block,
address and size, and where a row gives values, their exact thread, block, size and address
(or the address the program printed as "MC_EXPECT address=..."). Clean programs must report no error or warning. Prints a markdown table
with the time of each run. Without a GPU: prints SKIPPED and exits 77.

usage: run_memcheck_gpu.py --cucheck BIN [--build-dir DIR] [--modes full,adaptive]
Standard library only."""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(GPU))
sys.path.insert(0, GPU)
import findings  # noqa: E402
import run_gpu_tests  # noqa: E402


def load_rows(path):
    rows = []
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            f = text.split()
            if len(f) not in (6, 7):
                raise SystemExit("%s:%d: expected 6 or 7 columns, found %d" % (path, number, len(f)))
            prog, kind, kernel, loc, what, opts = f[:6]
            values = parse_values(f[6], "%s:%d" % (path, number)) if len(f) == 7 else {}
            src_dir = HERE
            if prog.startswith("examples/"):
                prog = prog[len("examples/"):]
                src_dir = os.path.join(REPO, "examples")
            all_opts = [] if opts == "-" else opts.split(",")
            # "modes=full" (a '+'-joined list) limits the modes a row runs in; not a memcheck option
            modes = [o[len("modes="):].split("+") for o in all_opts if o.startswith("modes=")]
            rows.append({"prog": prog, "src": os.path.join(src_dir, prog + ".cu"), "kind": kind,
                         "kernel": None if kernel == "-" else kernel,
                         "location": None if loc == "-" else loc, "device": what == "device",
                         "opts": [o for o in all_opts if not o.startswith("modes=")],
                         "modes": modes[0] if modes else None, "values": values,
                         "where": "%s:%d" % (path, number)})
    return rows


def parse_values(text, where):
    """'thread=1.0.0;size=4;address=0x200|0x600' -> {key: [alternatives]}."""
    values = {}
    for item in text.split(";"):
        key, eq, val = item.partition("=")
        if not eq or key not in ("thread", "block", "size", "address"):
            raise SystemExit("%s: bad value %r (thread=, block=, size=, address=)" % (where, item))
        values[key] = val.split("|")
    return values


def printed_address(output):
    """The address a program printed as 'MC_EXPECT address=0x...', or None."""
    for line in output.splitlines():
        if line.startswith("MC_EXPECT address="):
            return line.split("=", 1)[1].strip()
    return None


def same_value(key, got, want):
    if key in ("thread", "block"):
        return isinstance(got, list) and ".".join(str(v) for v in got) == want
    if key == "size":
        return str(got) == want
    try:
        return int(str(got), 16) == int(want, 16)
    except ValueError:
        return False


def device_values_ok(found, kind, values, output):
    """(ok, why): some finding of kind has every expected value."""
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
        if all(any(same_value(k, d.get(k), w) for w in alts) for k, alts in want.items()):
            return True, ""
        seen.append({k: d.get(k) for k in want})
    return False, "values %s expected, found %s" % (want, seen)


def marker_ok(row):
    if not row["location"]:
        return True
    base, _, line = row["location"].rpartition(":")
    src = os.path.join(os.path.dirname(row["src"]), base)
    try:
        lines = open(src, encoding="utf-8").read().splitlines()
        return "BUG" in lines[int(line) - 1]
    except (OSError, ValueError, IndexError):
        return False


def device_fields_ok(found, kind):
    kinds = kind.split("|")
    for f in found:
        d = f.get("device") or {}
        if f.get("kind") in kinds and all(k in d for k in ("thread", "block", "address", "size")):
            return True
    return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cucheck", required=True)
    ap.add_argument("--build-dir", default=os.path.join(HERE, "build"))
    ap.add_argument("--modes", default="full,adaptive")
    args = ap.parse_args()
    if not run_gpu_tests.gpu_present():
        print("SKIPPED: no GPU")
        return 77
    nvcc = run_gpu_tests.find_tool("nvcc", ["/usr/local/cuda/bin/nvcc"])
    rows = load_rows(os.path.join(HERE, "expected.txt"))
    bin_dir = os.path.join(args.build_dir, "bin")
    errors = run_gpu_tests.build(nvcc, sorted({r["src"] for r in rows}), bin_dir,
                                 run_gpu_tests.gencode_flags())
    table, failures = [], []
    native = {}
    for row in rows:
        name = row["prog"]
        if errors.get(name):
            failures.append("%s: build failed: %s" % (name, errors[name][:300]))
            continue
        prog = os.path.join(bin_dir, name)
        if name not in native:
            t0 = time.time()
            code, _, _ = run_gpu_tests.run([prog])
            native[name] = (code, time.time() - t0)
        if not marker_ok(row):
            failures.append("%s: %s has no BUG marker" % (row["where"], row["location"]))
        for mode in args.modes.split(","):
            if row["modes"] is not None and mode not in row["modes"]:
                continue
            report = os.path.join(args.build_dir, "%s.%s.%d.json" % (name, mode, len(row["opts"])))
            if os.path.exists(report):
                os.remove(report)
            cmd = [args.cucheck, "--format", "json", "--output", report, "memcheck",
                   "--mode", mode] + [o for opt in row["opts"] for o in opt.split("=", 1)]
            t0 = time.time()
            code, out, err = run_gpu_tests.run(cmd + ["--", prog])
            secs = time.time() - t0
            try:
                text = open(report, encoding="utf-8", errors="replace").read()
            except OSError:
                text = out + err
            with open(report + ".log", "w", encoding="utf-8") as fh:
                fh.write(out + err)
            found = findings.extract(text)
            ok, why = findings.match(found, row["kind"], row["kernel"], row["location"])
            if ok and row["device"] and row["kind"] != "none" and not device_fields_ok(found, row["kind"]):
                ok, why = False, why + "; but without thread/block/address/size"
            if ok and row["kind"] != "none":
                vok, vwhy = device_values_ok(found, row["kind"], row["values"], out)
                if not vok:
                    ok, why = False, why + "; but " + vwhy
            if ok and row["kind"] == "none" and native[name][0] != 0:
                # a clean twin must run cleanly natively too (one that faults is no twin)
                ok, why = False, "the clean program exits %d natively" % native[name][0]
            first = next((f for f in found if f.get("kind") in row["kind"].split("|")), None)
            detail = ""
            if first is not None:
                d = first.get("device") or {}
                detail = "%s t%s b%s %s size %s x%s" % (
                    first.get("kind"), d.get("thread"), d.get("block"), d.get("address"),
                    d.get("size"), first.get("count", 1))
            status = "PASS" if ok else "FAIL"
            if not ok:
                failures.append("%s [%s %s]: %s (exit %d; log %s.log)" % (
                    name, mode, " ".join(row["opts"]), why, code, report))
            table.append((name, mode + (" " + " ".join(row["opts"]) if row["opts"] else ""),
                          row["kind"], status, "%.2f" % native[name][1], "%.2f" % secs,
                          str(native[name][0]), str(code), detail or why))
    print("| program | mode | expected | result | native s | cucheck s | native exit | cucheck exit | finding |")
    print("|---|---|---|---|---|---|---|---|---|")
    for t in table:
        print("| %s |" % " | ".join(t))
    for f in failures:
        print("FAIL: %s" % f)
    print("%d passed, %d failed" % (sum(1 for t in table if t[3] == "PASS"), len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
