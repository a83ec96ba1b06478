"""Benchmark workload: a launch-bound PyTorch training step, thousands of small kernels and
almost no work in each: a residual stack of --layers (default 64) blocks Linear(128, 128) ->
LayerNorm -> GELU on a batch of 8, mean-squared error against a random target, and Adam with
foreach=False (one set of kernels per parameter tensor, 256 of them by default). The step's time
is the host's launch path: what a per-launch cost of a checker adds shows here first. Prints
BENCH_TIME_MS and the other BENCH_ lines of torch_bench.py; without torch or CUDA, BENCH_SKIPPED.
"""
import sys

import torch_bench


def build(torch, args, dev):
    """The model, its optimizer and data on dev; returns step(), which returns the loss."""
    nn = torch.nn

    class Block(nn.Module):
        def __init__(self, width):
            super().__init__()
            self.fc = nn.Linear(width, width)
            self.norm = nn.LayerNorm(width)

        def forward(self, x):
            return x + nn.functional.gelu(self.norm(self.fc(x)))

    model = nn.Sequential(*(Block(args.width) for _ in range(args.layers))).to(dev)
    opt = torch.optim.Adam(model.parameters(), lr=1e-4, foreach=False)
    x = torch.randn(args.batch, args.width, device=dev)
    target = torch.randn(args.batch, args.width, device=dev)

    def step():
        opt.zero_grad(set_to_none=True)
        loss = nn.functional.mse_loss(model(x), target)
        loss.backward()
        opt.step()
        return loss

    return step


def main():
    ap = torch_bench.parser(__doc__)
    ap.add_argument("--layers", type=int, default=64)
    ap.add_argument("--width", type=int, default=128)
    ap.add_argument("--batch", type=int, default=8)
    args = ap.parse_args()
    torch = torch_bench.load_torch()
    if torch is None:
        return 0
    step = build(torch, args, torch.device("cuda"))
    return torch_bench.measure(torch, "tiny_kernels_step", args, step)


if __name__ == "__main__":
    sys.exit(main())
