"""A racecheck GPU row: three training steps of the benchmark's transformer language model
(bench/workloads/transformer_step.py: bf16 autocast, AdamW, an embedding whose backward pass runs
CUB's radix sort and multi-tile scans) under the default adaptive mode. Nothing to report, and the
program must end as it does natively (on 2026-11-25 it faulted with an illegal address at CUB's
DeviceScanKernel under racecheck in every run: this row is the test for that)."""
import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STEP = os.path.join(HERE, "..", "..", "..", "bench", "workloads", "transformer_step.py")

if __name__ == "__main__":
    sys.argv = [STEP, "--steps", "3", "--warmup", "1"]
    sys.path.insert(0, os.path.dirname(STEP))  # its harness, torch_bench.py, beside it
    runpy.run_path(STEP, run_name="__main__")
