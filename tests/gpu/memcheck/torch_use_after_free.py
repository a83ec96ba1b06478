"""A Triton kernel that scales a tensor the program already freed: the caching allocator keeps the
freed block inside its segment, so a checker that only sees cudaMalloc segments is blind to it.
`cucheck memcheck` reports a use-after-free of the tensor block, with the block's allocation
stack (this file's Python line). Tensor blocks allocated and freed between two checked launches
never reach the allocation table (their changes cancel in the agent's queue), so this is also
the test that a block's free, queued, is applied before the next checked launch. Exits 0
natively; with FIXED=1 the kernel scales a live tensor and nothing must be reported."""
import os
import sys

try:
    import torch
    import triton
    import triton.language as tl
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"skipped: {e}")
    sys.exit(0)


@triton.jit
def scale_inplace_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)  # BUG (with a freed x_ptr): read
    tl.store(x_ptr + offs, x * 2.0, mask=offs < n)  # BUG (with a freed x_ptr): write


class FreedTensor:
    """What Triton needs of a pointer argument: the address (of a freed block here) and dtype."""

    def __init__(self, ptr, dtype):
        self.ptr = ptr
        self.dtype = dtype

    def data_ptr(self):
        return self.ptr


def main():
    if not torch.cuda.is_available():
        print("skipped: no CUDA device")
        return 0
    n = 4096
    keep = torch.zeros(1 << 16, device="cuda")  # keeps the segment's first block alive
    for _ in range(50):  # short-lived tensors: allocated and freed before any checked launch
        t = torch.ones(1024, device="cuda")
        del t
    x = torch.rand(n, device="cuda")  # the block the kernel will use
    live = torch.rand(n, device="cuda")
    target = x
    if os.environ.get("FIXED") != "1":
        target = FreedTensor(x.data_ptr(), x.dtype)
        del x  # BUG: the kernel below scales the freed block
    torch.cuda.synchronize()
    scale_inplace_kernel[(n // 256,)](target, n, BLOCK=256)
    scale_inplace_kernel[(n // 256,)](live, n, BLOCK=256)
    torch.cuda.synchronize()
    print(f"scaled; keep[0]={keep[0].item()} live ok={bool(torch.isfinite(live).all().item())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
