#!/usr/bin/env python3
"""PyTorch workload for the profile GPU checks: a small MLP training loop with NVTX ranges
("step", "forward", "backward", "optimizer"). Deterministic kernel sequence per step.

  torch_nvtx.py --steps N                       plain run (to run under `cucheck profile`)
  torch_nvtx.py --steps N --torch-profiler OUT  the same run under torch.profiler; writes
                                                OUT (JSON: kernel instances and total CUDA
                                                kernel time) as the independent measurement
Prints "STEPS_DONE N"."""
import argparse
import json
import sys

import torch


def build():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(1024, 4096), torch.nn.ReLU(),
                                torch.nn.Linear(4096, 1024)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=1e-3)
    x = torch.randn(256, 1024, device="cuda")
    y = torch.randn(256, 1024, device="cuda")
    return model, opt, x, y


def step(model, opt, x, y):
    torch.cuda.nvtx.range_push("step")
    torch.cuda.nvtx.range_push("forward")
    loss = torch.nn.functional.mse_loss(model(x), y)
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_push("backward")
    opt.zero_grad(set_to_none=True)
    loss.backward()
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_push("optimizer")
    opt.step()
    torch.cuda.nvtx.range_pop()
    torch.cuda.nvtx.range_pop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--torch-profiler")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        print("no CUDA device", file=sys.stderr)
        return 77
    if not args.torch_profiler:
        model, opt, x, y = build()
        for _ in range(args.steps):
            step(model, opt, x, y)
        torch.cuda.synchronize()
        print("STEPS_DONE %d" % args.steps)
        return 0
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
        model, opt, x, y = build()  # inside: the profile sees the whole process's kernels too
        for _ in range(args.steps):
            step(model, opt, x, y)
        torch.cuda.synchronize()
    # Count kernels from Kineto's own trace (cat "kernel"), not from prof.events(): the CUDA
    # events there also hold "gpu_user_annotation" spans, GPU-side copies of CPU
    # record_function ranges such as "Optimizer.step#SGD.step" (one per step), which are not
    # kernels. Counting them made torch.profiler read 322 "kernels" against 302 (20 steps).
    trace_path = args.torch_profiler + ".kineto.json"
    prof.export_chrome_trace(trace_path)
    with open(trace_path) as f:
        events = json.load(f).get("traceEvents", [])
    kernels, total_us, annotations = 0, 0.0, 0
    for e in events:
        if e.get("ph") != "X":
            continue
        if e.get("cat") == "kernel":
            kernels += 1
            total_us += float(e.get("dur", 0))  # Kineto writes microseconds
        elif e.get("cat") == "gpu_user_annotation":
            annotations += 1
    with open(args.torch_profiler, "w") as f:
        json.dump({"kernel_instances": kernels, "kernel_time_ns": total_us * 1000,
                   "gpu_user_annotations_left_out": annotations}, f)
    print("STEPS_DONE %d" % args.steps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
