"""Benchmark workload: training steps of a small transformer language model in PyTorch with
mixed precision (bf16 autocast) and AdamW, the gradient norm clipped to 1.0 (--no-clip: not
clipped): 4 encoder layers, d_model 512, 8 heads, sequence 256, batch 16, vocabulary 8192. Runs
--warmup untimed steps, then --steps timed ones, and prints BENCH_TIME_MS, the milliseconds per
timed step, and BENCH_THREAD_CPU_MS, the CPU time of the launching thread per timed step (what
host-side overhead adds to). With BENCH_TORCH_PROFILER=1 the timed steps run under torch.profiler
(CPU + CUDA activities), the profiler anchor of bench/workloads.json. With BENCH_MEMINFO=1 it
also prints the device memory in use at the end (BENCH_DEVICE_USED_MIB) and the most the caching
allocator reserved (BENCH_PROGRAM_MIB).
Without torch or CUDA it prints BENCH_SKIPPED and exits 0.
"""
import argparse
import contextlib
import os
import sys
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--warmup", type=int, default=20)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d-model", type=int, default=512)
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--vocab", type=int, default=8192)
    ap.add_argument("--clip", action=argparse.BooleanOptionalAction, default=True,
                    help="clip the gradient norm to 1.0 before the optimizer step (default on)")
    args = ap.parse_args()
    try:
        import torch
        import torch.nn as nn
    except ImportError:
        print("BENCH_SKIPPED PyTorch is not installed")
        return 0
    if not torch.cuda.is_available():
        print("BENCH_SKIPPED torch sees no CUDA device")
        return 0

    torch.manual_seed(0)
    dev = torch.device("cuda")

    class LM(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = nn.Embedding(args.vocab, args.d_model)
            layer = nn.TransformerEncoderLayer(args.d_model, nhead=8,
                                               dim_feedforward=4 * args.d_model,
                                               batch_first=True, norm_first=True)
            self.encoder = nn.TransformerEncoder(layer, args.layers, enable_nested_tensor=False)
            self.head = nn.Linear(args.d_model, args.vocab)

        def forward(self, tokens, mask):
            return self.head(self.encoder(self.embed(tokens), mask=mask, is_causal=True))

    model = LM().to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    mask = nn.Transformer.generate_square_subsequent_mask(args.seq, device=dev)
    tokens = torch.randint(0, args.vocab, (args.batch, args.seq + 1), device=dev)
    inputs, targets = tokens[:, :-1], tokens[:, 1:]
    loss_fn = nn.CrossEntropyLoss()

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast("cuda", dtype=torch.bfloat16):
            logits = model(inputs, mask)
            loss = loss_fn(logits.reshape(-1, args.vocab).float(), targets.reshape(-1))
        loss.backward()
        if args.clip:
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        return loss

    for _ in range(args.warmup):
        step()
    torch.cuda.synchronize()

    profiling = contextlib.nullcontext()
    if os.environ.get("BENCH_TORCH_PROFILER") == "1":
        from torch.profiler import ProfilerActivity, profile
        profiling = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])
    with profiling:
        t0 = time.perf_counter()
        c0 = time.thread_time()
        for _ in range(args.steps):
            loss = step()
        torch.cuda.synchronize()
        ms = (time.perf_counter() - t0) * 1e3
        cpu_ms = (time.thread_time() - c0) * 1e3
    print("transformer_step: %d timed steps, %.3f ms per step, last loss %.4f"
          % (args.steps, ms / args.steps, loss.item()))
    print("BENCH_TIME_MS %.6f" % (ms / args.steps))
    print("BENCH_THREAD_CPU_MS %.6f" % (cpu_ms / args.steps))
    if os.environ.get("BENCH_MEMINFO"):
        free, total = torch.cuda.mem_get_info()
        print("BENCH_DEVICE_USED_MIB %.1f" % ((total - free) / 1048576.0))
        print("BENCH_PROGRAM_MIB %.1f" % (torch.cuda.max_memory_reserved() / 1048576.0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
