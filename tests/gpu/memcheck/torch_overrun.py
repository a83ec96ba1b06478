"""A Triton kernel that writes past the end of one tensor into the next one of the same caching-
allocator segment: invisible to a checker that only sees cudaMalloc segments, reported by
`cucheck memcheck` against the tensor (it reads tensor bounds from PyTorch's own caching
allocator, whose settings it keeps). Exits 0 natively; with
FIXED=1 the kernel masks its stores and nothing must be reported."""
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
def scale_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, MASKED: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if MASKED:
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.store(out_ptr + offs, x * 2.0, mask=offs < n)
    else:
        x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
        tl.store(out_ptr + offs, x * 2.0)  # BUG: no mask, the last block writes past `out`


def main():
    if not torch.cuda.is_available():
        print("skipped: no CUDA device")
        return 0
    n = 1000  # not a multiple of BLOCK: the last block overruns by 24 floats
    x = torch.rand(n, device="cuda")
    out = torch.empty(n, device="cuda")
    neighbour = torch.zeros(4096, device="cuda")  # the next tensor of the segment
    masked = os.environ.get("FIXED") == "1"
    scale_kernel[(triton.cdiv(n, 256),)](x, out, n, BLOCK=256, MASKED=masked)
    torch.cuda.synchronize()
    ok = torch.allclose(out, x * 2.0)
    print(f"scaled {n} values: {'ok' if ok else 'WRONG'}; neighbour[0:2]={neighbour[:2].tolist()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
