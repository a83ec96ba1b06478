"""A clean small training step (MLP + attention block, AdamW, bf16 autocast) for memcheck: no
finding may be reported. Prints BENCH_TIME_MS per step after warm-up."""
import sys
import time

try:
    import torch
    import torch.nn as nn
except ImportError as e:  # pragma: no cover
    print(f"skipped: {e}")
    sys.exit(0)


def main():
    if not torch.cuda.is_available():
        print("skipped: no CUDA device")
        return 0
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    torch.manual_seed(0)
    layer = nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024,
                                       batch_first=True).cuda()
    head = nn.Linear(256, 10).cuda()
    opt = torch.optim.AdamW(list(layer.parameters()) + list(head.parameters()), lr=1e-3)
    x = torch.randn(16, 64, 256, device="cuda")
    y = torch.randint(0, 10, (16,), device="cuda")
    for i in range(steps + 3):
        if i == 3:
            torch.cuda.synchronize()
            t0 = time.perf_counter()
        with torch.autocast("cuda", dtype=torch.bfloat16):
            loss = nn.functional.cross_entropy(head(layer(x).mean(dim=1)), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    torch.cuda.synchronize()
    print(f"loss {loss.item():.4f}")
    print(f"BENCH_TIME_MS {(time.perf_counter() - t0) * 1000 / steps:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
