"""A few training steps of a small MLP compiled with torch.compile (default mode: Inductor's
Triton kernels, PyTorch's caching allocator). Clean: memcheck must report nothing and the
program must run as it does natively (exit 0)."""
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
    model = nn.Sequential(nn.Linear(128, 256), nn.GELU(), nn.LayerNorm(256),
                          nn.Linear(256, 10)).cuda()
    opt = torch.optim.SGD(model.parameters(), lr=0.05)
    step_model = torch.compile(model)
    x = torch.randn(64, 128, device="cuda")
    y = torch.randint(0, 10, (64,), device="cuda")
    for _ in range(4):
        loss = nn.functional.cross_entropy(step_model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
    torch.cuda.synchronize()
    print(f"loss {loss.item():.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
