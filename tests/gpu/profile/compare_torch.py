#!/usr/bin/env python3
"""GPU check of `cucheck profile` against torch.profiler on torch_nvtx.py: the same
deterministic PyTorch run, once under torch.profiler (Kineto, the independent measurement)
and once under cucheck profile (the two cannot share a process: one CUPTI client each).
Checks: kernel instances equal, total GPU kernel time within 2%, the NVTX ranges step /
forward / backward / optimizer each seen once per step, and the cucheck run itself
(tests/gpu/verdict.py: exit 0, a process report collected, its --format json report parses,
profile's note counts the kernel instances, no error or warning).
Usage: compare_torch.py CUCHECK WORKDIR [STEPS]   (exit 0 pass, 1 fail, 77 no torch/GPU)"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import verdict  # noqa: E402


def main():
    cucheck, work = sys.argv[1], sys.argv[2]
    steps = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    os.makedirs(work, exist_ok=True)
    script = os.path.join(HERE, "torch_nvtx.py")
    ref_path = os.path.join(work, "torch_ref.json")
    r = subprocess.run([sys.executable, script, "--steps", str(steps), "--torch-profiler",
                        ref_path], capture_output=True, text=True)
    if r.returncode == 77 or "No module named 'torch'" in r.stderr:
        print("skip: %s" % r.stderr.strip()[-200:])
        return 77
    if r.returncode != 0:
        print("FAIL: torch.profiler run: " + r.stderr[-2000:])
        return 1
    summary = os.path.join(work, "torch_summary.json")
    report = os.path.join(work, "torch_report.jsonl")
    if os.path.exists(report):
        os.remove(report)
    p = subprocess.run([cucheck, "--format", "json", "--output", report, "profile", "--summary",
                        "json", "--summary-file", summary,
                        "--trace", os.path.join(work, "torch_trace.json"), "--", sys.executable,
                        script, "--steps", str(steps)], capture_output=True, text=True)
    sys.stderr.write(p.stderr[-4000:])
    ok, notes = verdict.judge(p.returncode, p.stderr, report, "profile", [], 0, need="launches")
    if not ok:
        print("FAIL: the cucheck profile run: " + "; ".join(notes))
        return 1
    with open(ref_path) as f:
        ref = json.load(f)
    with open(summary) as f:
        s = json.load(f)
    bad = 0
    got_n = sum(k["count"] for k in s["kernels"])
    got_t = sum(k["total_ns"] for k in s["kernels"])
    print("kernels: cucheck %d, torch.profiler %d; time: cucheck %.3f ms, torch.profiler %.3f ms "
          "(torch.profiler's %s gpu_user_annotation spans left out: not kernels)"
          % (got_n, ref["kernel_instances"], got_t / 1e6, ref["kernel_time_ns"] / 1e6,
             ref.get("gpu_user_annotations_left_out", "?")))
    if got_n != ref["kernel_instances"]:
        print("FAIL: kernel instance counts differ")
        bad += 1
    if abs(got_t - ref["kernel_time_ns"]) > 0.02 * ref["kernel_time_ns"]:
        print("FAIL: total kernel time differs by more than 2%")
        bad += 1
    ranges = {r["name"]: r["count"] for r in s["nvtx"]}
    for name in ("step", "forward", "backward", "optimizer"):
        if ranges.get(name) != steps:
            print("FAIL: NVTX range %s seen %s times, expected %d" % (name, ranges.get(name), steps))
            bad += 1
    print("compare_torch: %s" % ("PASS" if not bad else "%d failure(s)" % bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
