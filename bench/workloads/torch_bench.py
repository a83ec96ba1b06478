"""The harness shared by the PyTorch benchmark workloads (transformer_step.py, cnn_step.py,
hf_step.py, compiled_step.py, tiny_kernels_step.py): the
--steps/--warmup options, the checks that print BENCH_SKIPPED <why> and exit 0 (no torch, no CUDA),
torch.manual_seed(0), and the measurement: --warmup untimed steps, a synchronize, --steps timed
steps (under torch.profiler with CPU + CUDA activities when BENCH_TORCH_PROFILER=1), a synchronize,
then BENCH_TIME_MS (milliseconds per timed step), BENCH_THREAD_CPU_MS (CPU time of the launching
thread per timed step), BENCH_PROCESS_CPU_MS (CPU time of all the process's threads per timed step:
autograd's backward thread and an in-process tool's threads included) and, with BENCH_MEMINFO=1,
BENCH_DEVICE_USED_MIB (the GPU's memory in use after the timed steps, any tool's own buffers
included), BENCH_PROGRAM_MIB (what PyTorch's allocator reserved at most) and BENCH_HOST_PEAK_MIB
(the process's peak resident memory, an in-process tool's own included).
Standard library only at import; torch is imported by load_torch().
"""
import argparse
import contextlib
import os
import resource
import time


def parser(doc, steps=200, warmup=20):
    """An argument parser with --steps and --warmup; the workload adds its own options."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0] if doc else None)
    ap.add_argument("--steps", type=int, default=steps)
    ap.add_argument("--warmup", type=int, default=warmup)
    return ap


def load_torch():
    """torch, seeded, with a CUDA device; None after printing BENCH_SKIPPED."""
    try:
        import torch
    except ImportError:
        print("BENCH_SKIPPED PyTorch is not installed")
        return None
    if not torch.cuda.is_available():
        print("BENCH_SKIPPED torch sees no CUDA device")
        return None
    torch.manual_seed(0)
    return torch


def one_line(exc):
    """An exception as '<type>: <first line>' for a BENCH_SKIPPED line."""
    text = str(exc).strip().splitlines()
    return "%s: %s" % (type(exc).__name__, text[0] if text else "")


def measure(torch, name, args, step, warmup_fails_as=None):
    """Runs step() args.warmup times untimed and args.steps times timed and prints the BENCH_
    lines. step() returns the loss tensor (read once, after the timing). With warmup_fails_as, an
    exception during the warm-up prints 'BENCH_SKIPPED <warmup_fails_as> failed: ...' and returns
    0 (compilation happens there). Returns the exit status."""
    loss = None
    try:
        for _ in range(args.warmup):
            loss = step()
        torch.cuda.synchronize()
    except Exception as exc:  # noqa: BLE001 - any failure of the compiler is a skip reason
        if warmup_fails_as is None:
            raise
        print("BENCH_SKIPPED %s failed: %s" % (warmup_fails_as, one_line(exc)))
        return 0

    profiling = contextlib.nullcontext()
    if os.environ.get("BENCH_TORCH_PROFILER") == "1":
        from torch.profiler import ProfilerActivity, profile
        profiling = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])
    with profiling:
        t0 = time.perf_counter()
        c0 = time.thread_time()
        p0 = time.process_time()
        for _ in range(args.steps):
            loss = step()
        torch.cuda.synchronize()
        ms = (time.perf_counter() - t0) * 1e3
        cpu_ms = (time.thread_time() - c0) * 1e3
        proc_ms = (time.process_time() - p0) * 1e3
    steps = max(args.steps, 1)
    last = "%.4f" % loss.float().item() if loss is not None else "-"
    print("%s: %d timed steps, %.3f ms per step, last loss %s" % (name, args.steps, ms / steps, last))
    print("BENCH_TIME_MS %.6f" % (ms / steps))
    print("BENCH_THREAD_CPU_MS %.6f" % (cpu_ms / steps))
    print("BENCH_PROCESS_CPU_MS %.6f" % (proc_ms / steps))
    if os.environ.get("BENCH_MEMINFO"):
        free, total = torch.cuda.mem_get_info()
        print("BENCH_DEVICE_USED_MIB %.1f" % ((total - free) / 1048576.0))
        print("BENCH_PROGRAM_MIB %.1f" % (torch.cuda.max_memory_reserved() / 1048576.0))
        peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
        print("BENCH_HOST_PEAK_MIB %.1f" % (peak_kib / 1024.0))
    return 0
