#!/usr/bin/env python3
"""Overhead of `cucheck profile` against the native run, on the two target workloads: 10,000
tiny launches (bench/workloads/tiny_launches.cu) and a PyTorch training step
(bench/workloads/transformer_step.py). Each configuration runs REPS times, alternating; the
medians of the programs' own BENCH_TIME_MS lines are compared (target: <= 1.03x). Writes a
markdown table to $OUT/profile_overhead.md (or ./profile_overhead.md) and prints it.
Each run prints one progress line (configuration, seconds) as it ends, and a run that takes more
than RUN_TIMEOUT_S (default 300) is reported by name instead of stalling the whole benchmark: the
full default set is 2 workloads x 3 configurations x REPS runs, the PyTorch ones ~11 s each even
natively (start-up), so REPS=7 alone needs about 5 minutes.
Usage: bench_overhead.py CUCHECK [REPS]   (REPS default 3)"""
import os
import statistics
import time
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
WL = os.path.join(ROOT, "bench", "workloads")


RUN_TIMEOUT_S = float(os.environ.get("RUN_TIMEOUT_S", "300"))


def bench_ms(cmd, label):
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        tail = e.stderr or ""
        if isinstance(tail, bytes):
            tail = tail.decode(errors="replace")
        tail = tail[-800:]
        raise RuntimeError("%s: still running after %.0f s (hang?): %s" % (label, RUN_TIMEOUT_S,
                                                                          tail))
    print("  %s: %.1f s (rc %d)" % (label, time.monotonic() - t0, p.returncode), flush=True)
    for line in p.stdout.splitlines():
        if line.startswith("BENCH_TIME_MS"):
            return float(line.split()[1])
    raise RuntimeError("%s: no BENCH_TIME_MS (rc %d): %s" % (cmd, p.returncode, p.stderr[-800:]))


def main():
    cucheck = sys.argv[1]
    reps = int(sys.argv[2]) if len(sys.argv) > 2 else int(os.environ.get("PROFILE_REPS", "3"))
    work = tempfile.mkdtemp(prefix="cucheck_prof_bench_")
    tiny = os.path.join(work, "tiny_launches")
    subprocess.run(["nvcc", "-O2", "-o", tiny, os.path.join(WL, "tiny_launches.cu")], check=True)
    workloads = [("10,000 tiny launches", [tiny])]
    try:
        import torch  # noqa: F401
        workloads.append(("PyTorch training step",
                          [sys.executable, os.path.join(WL, "transformer_step.py")]))
    except ImportError:
        print("torch not importable: the PyTorch row is skipped")
    configs = [
        ("native", lambda c: c),
        ("profile (summary)", lambda c: [cucheck, "--quiet", "profile", "--summary", "none",
                                         "--"] + c),
        ("profile (summary + trace)",
         lambda c: [cucheck, "--quiet", "profile", "--summary", "none", "--trace",
                    os.path.join(work, "t.%p.json"), "--"] + c),
        # the anchor: the PyTorch workload's timed steps under torch.profiler (CPU + CUDA)
        ("torch.profiler", lambda c: ["env", "BENCH_TORCH_PROFILER=1"] + c),
    ]
    rows = []
    for name, cmd in workloads:
        use = [c for c in configs if c[0] != "torch.profiler" or cmd[0] == sys.executable]
        times = {c[0]: [] for c in use}
        for rep in range(reps):
            # alternate the order so that drift (clocks, caches) does not favour one
            for cname, wrap in (use if rep % 2 == 0 else use[::-1]):
                times[cname].append(bench_ms(wrap(cmd), "%s, %s" % (name, cname)))
        native = statistics.median(times["native"])
        for cname, _ in use:
            med = statistics.median(times[cname])
            rows.append((name, cname, med, med / native, times[cname]))
    lines = ["| workload | configuration | median ms/iteration | ratio to native | all runs (ms) |",
             "|---|---|---:|---:|---|"]
    for w, c, med, ratio, runs in rows:
        lines.append("| %s | %s | %.4f | %.3fx%s | %s |" % (
            w, c, med, ratio, "" if ratio <= 1.03 or c in ("native", "torch.profiler")
            else " (over 1.03x)", ", ".join("%.4g" % v for v in runs)))
    table = "\n".join(lines) + "\n\n%d repetitions each, alternating; target <= 1.03x.\n" % reps
    out_dir = os.environ.get("OUT", ".")
    with open(os.path.join(out_dir, "profile_overhead.md"), "w") as f:
        f.write(table)
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
