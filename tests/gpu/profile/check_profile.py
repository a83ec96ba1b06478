#!/usr/bin/env python3
"""GPU check of `cucheck profile` on known_work.cu (see its header): runs the program under the
profile tool with a JSON summary and a gzip'ed trace, then compares with what the program
reports about itself (counts it launched, CUDA-event times of its spin kernels):
  - kernel instances per kernel equal the launched counts (graph nodes included);
  - total spin-kernel GPU time within 2% of the CUDA-event measurement;
  - memory operations: 2 H2D, 2 D2H, 1 memset, with their bytes;
  - the NVTX ranges the program opened;
  - the trace: valid JSON, spin kernels on two stream tracks, one flow start and end per
    launch-to-kernel arrow, graph kernels linked to cudaGraphLaunch calls;
  - the run itself (tests/gpu/verdict.py): cucheck exits 0 as the program does, collected a
    process report, its --format json report parses, profile's note counts the kernel
    instances it saw, and nothing is reported as an error or warning.
Usage: check_profile.py CUCHECK KNOWN_WORK_BINARY WORKDIR   (exit 0 pass, 1 fail, 77 no GPU)"""
import gzip
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import verdict  # noqa: E402


def fail(msg):
    print("FAIL: " + msg)
    return 1


def main():
    cucheck, prog, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    summary = os.path.join(work, "summary.json")
    trace = os.path.join(work, "trace.json")
    report = os.path.join(work, "report.jsonl")
    if os.path.exists(report):
        os.remove(report)
    cmd = [cucheck, "--format", "json", "--output", report, "profile", "--summary", "json",
           "--summary-file", summary, "--trace", trace, "--gzip", "--", prog]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired as e:
        err = e.stderr.decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
        return fail("profile run still running after 120 s (hang?); stderr tail: " + err[-1500:])
    sys.stderr.write(p.stderr)
    if "no CUDA-capable device" in p.stderr or "cudaErrorNoDevice" in p.stderr:
        return 77
    ok, notes = verdict.judge(p.returncode, p.stderr, report, "profile", [], 0, need="launches")
    if not ok:
        return fail("the profile run: " + "; ".join(notes))
    expect = None
    for line in p.stdout.splitlines():
        if line.startswith("EXPECT "):
            expect = json.loads(line[7:])
    if expect is None:
        return fail("the program printed no EXPECT line")
    with open(summary) as f:
        s = json.load(f)
    bad = 0
    by_name = {}
    for k in s["kernels"]:
        short = k["name"].split("(")[0].split(" ")[-1]
        by_name[short] = k
    for name, count in expect["kernels"].items():
        got = by_name.get(name, {}).get("count", 0)
        if got != count:
            bad += fail("%s: %d instances, expected %d" % (name, got, count))
    spin_ms = by_name.get("spin_kernel", {}).get("total_ns", 0) / 1e6
    ref = expect["spin_event_ms"]
    err = abs(spin_ms - ref) / ref if ref else 1
    print("spin_kernel: profile %.3f ms, CUDA events %.3f ms (%.2f%%)" % (spin_ms, ref, err * 100))
    if err > 0.02:
        bad += fail("spin kernel time differs by %.2f%% (> 2%%)" % (err * 100))
    ops = {m["name"]: m for m in s["memops_by_time"]}
    for op, n in (("[CUDA memcpy Host-to-Device]", expect["h2d"]),
                  ("[CUDA memcpy Device-to-Host]", expect["d2h"]),
                  ("[CUDA memset]", expect["memsets"])):
        if ops.get(op, {}).get("count", 0) != n:
            bad += fail("%s: %s operations, expected %d" % (op, ops.get(op, {}).get("count"), n))
    h2d_bytes = ops.get("[CUDA memcpy Host-to-Device]", {}).get("bytes", 0)
    if h2d_bytes != 2 * expect["copy_bytes"]:
        bad += fail("H2D bytes %s, expected %d" % (h2d_bytes, 2 * expect["copy_bytes"]))
    ranges = {r["name"] for r in s["nvtx"]}
    for r in expect["nvtx"]:
        if r not in ranges:
            bad += fail("NVTX range %r missing (have %s)" % (r, sorted(ranges)))
    occ = [l for l in s["launches"] if l["name"].startswith("spin_kernel")]
    if not occ or occ[0].get("theoretical_occupancy") is None:
        bad += fail("no occupancy for spin_kernel")

    path = trace + ".gz" if os.path.exists(trace + ".gz") else trace
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        t = json.load(f)
    ev = t["traceEvents"]
    spin_tracks = {(e["pid"], e["tid"]) for e in ev
                   if e.get("ph") == "X" and e.get("cat") == "kernel"
                   and e["name"].startswith("spin_kernel")}
    if len(spin_tracks) != expect["streams_with_spin"]:
        bad += fail("spin kernels on %d tracks, expected %d" % (len(spin_tracks),
                                                                 expect["streams_with_spin"]))
    starts = [e["id"] for e in ev if e.get("ph") == "s"]
    ends = [e["id"] for e in ev if e.get("ph") == "f"]
    if sorted(starts) != sorted(ends) or len(set(starts)) != len(starts):
        bad += fail("flow starts and ends do not pair up")
    total_kernels = sum(expect["kernels"].values())
    kernel_events = sum(1 for e in ev if e.get("ph") == "X" and e.get("cat") == "kernel")
    if kernel_events != total_kernels:
        bad += fail("%d kernel slices in the trace, expected %d" % (kernel_events, total_kernels))
    graph_api = sum(1 for e in ev if e.get("ph") == "X" and e["name"] == "cudaGraphLaunch")
    if graph_api != expect["graph_launches"]:
        bad += fail("%d cudaGraphLaunch slices, expected %d" % (graph_api,
                                                                 expect["graph_launches"]))
    if len(starts) < total_kernels:
        bad += fail("%d flow arrows for %d kernels" % (len(starts), total_kernels))
    print("check_profile: %s" % ("PASS" if not bad else "%d failure(s)" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
