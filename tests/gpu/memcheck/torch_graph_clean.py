"""A CUDA graph captured by hand with torch.cuda.graph (static input and output tensors in the
graph's private memory pool, blocks the allocator frees during capture and the replays still
use) and replayed with new inputs. Clean: memcheck must report nothing."""
import sys

try:
    import torch
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"skipped: {e}")
    sys.exit(0)


def step(x, w):
    h = torch.relu(x @ w)  # a temporary freed inside the capture
    return (h * 2.0).sum(dim=1)


def main():
    if not torch.cuda.is_available():
        print("skipped: no CUDA device")
        return 0
    torch.manual_seed(0)
    w = torch.randn(256, 256, device="cuda")
    static_x = torch.randn(64, 256, device="cuda")
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):  # warm-up on a side stream, as the documentation asks
        for _ in range(2):
            step(static_x, w)
    torch.cuda.current_stream().wait_stream(side)
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        static_y = step(static_x, w)
    worst = 0.0
    for i in range(4):
        static_x.copy_(torch.randn(64, 256, device="cuda"))
        graph.replay()
        worst = max(worst, (static_y - step(static_x, w)).abs().max().item())
    print(f"replays agree: {'ok' if worst < 1e-2 else 'WRONG'}")
    return 0 if worst < 1e-2 else 2


if __name__ == "__main__":
    sys.exit(main())
