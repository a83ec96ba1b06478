#!/usr/bin/env python3
"""Writes a bench/run_bench.py configuration for memcheck's overhead table: the given workloads
of bench/workloads.json, each run natively, under `cucheck memcheck --mode full`, under
`cucheck memcheck` (adaptive) and under compute-sanitizer memcheck (the ratio anchor).
usage: bench_config.py OUT.json [WORKLOAD...]  Standard library only."""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(HERE))), "bench")


def main():
    if len(sys.argv) < 2:
        sys.stderr.write(__doc__)
        return 2
    cfg = json.load(open(os.path.join(BENCH, "workloads.json"), encoding="utf-8"))
    wanted = sys.argv[2:] or ["vecadd", "reduce", "gemm_cublas", "tiny_launches", "stencil"]
    out = []
    for w in cfg["workloads"]:
        if w["name"] not in wanted:
            continue
        w = dict(w)
        w["cucheck"] = [{"tool": "memcheck", "opts": ["--mode", "full"]}, {"tool": "memcheck"}]
        w["anchors"] = ["compute-sanitizer-memcheck"]
        w["ratio_anchor"] = "compute-sanitizer-memcheck"
        margs = dict(w.get("mode_args", {}))
        if "cucheck memcheck" in margs:
            margs["cucheck memcheck --mode full"] = margs["cucheck memcheck"]
        w["mode_args"] = margs
        out.append(w)
    cfg["workloads"] = out
    with open(sys.argv[1], "w", encoding="utf-8") as fh:
        json.dump(cfg, fh, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
