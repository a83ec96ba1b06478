"""torch.compile(mode="reduce-overhead"): Inductor's kernels replayed through CUDA graph trees,
whose private memory pool asks the caching allocator for its live blocks
(checkPoolLiveAllocations). Clean: under memcheck the program must run as natively (exit 0, no
finding); with the cudaMallocAsync backend it stops with a RuntimeError instead."""
import sys

try:
    import torch
    import torch.nn as nn
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"skipped: {e}")
    sys.exit(0)


def main():
    if not torch.cuda.is_available():
        print("skipped: no CUDA device")
        return 0
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 64)).cuda().eval()
    run = torch.compile(model, mode="reduce-overhead")
    x = torch.randn(32, 64, device="cuda")
    with torch.no_grad():
        for _ in range(5):  # warm-up, recording, then replays of the graph tree
            out = run(x)
            total = out.sum().item()
        ref = model(x).sum().item()
    ok = abs(total - ref) <= 1e-3 * max(1.0, abs(ref))
    print(f"replayed: {'ok' if ok else 'WRONG'}")
    return 0 if ok else 2


if __name__ == "__main__":
    sys.exit(main())
