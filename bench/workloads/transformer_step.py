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
import sys

import torch_bench


def main():
    ap = torch_bench.parser(__doc__)
    ap.add_argument("--layers", type=int, default=4)
    ap.add_argument("--d-model", type=int, default=512)
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--vocab", type=int, default=8192)
    ap.add_argument("--clip", action=argparse.BooleanOptionalAction, default=True,
                    help="clip the gradient norm to 1.0 before the optimizer step (default on)")
    args = ap.parse_args()
    torch = torch_bench.load_torch()
    if torch is None:
        return 0
    nn = torch.nn
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

    return torch_bench.measure(torch, "transformer_step", args, step)


if __name__ == "__main__":
    sys.exit(main())
