"""GPU test program for streamcheck (tests/gpu/streamcheck/run_targets.sh): the missing
`record_stream` reuse race of PyTorch's caching allocator.

A tensor x is made on the default stream and used by a kernel on a side stream (which waits for
the default stream first, so that use is ordered after x was filled). Then x is deleted on the
default stream WITHOUT x.record_stream(side): the allocator believes the block is free as soon as
the default stream is done with it, hands the same block to the next allocation of that size on
the default stream, and the new tensor's fill may overwrite it while the side stream still reads
x: a race between the side stream's kernel and the fill. CC_RECORD_STREAM=1 selects the correct
twin (x.record_stream(side) before del: the allocator keeps the block until the side stream's work
is known complete, or hands out another block): clean.

The tensors are 16 MiB, above the allocator's 10 MiB threshold, so each gets its own cudaMalloc
segment (inferred access sets of --mode api run to the end of a segment; smaller tensors would
share one). Prints whether the block was reused; exits 0. Skips cleanly (exit 0, SKIPPED)
without torch or a CUDA device.
"""
import os
import sys

try:
    import torch
except ImportError:
    print("torch_record_stream: SKIPPED: PyTorch is not installed")
    sys.exit(0)
if not torch.cuda.is_available():
    print("torch_record_stream: SKIPPED: torch sees no CUDA device")
    sys.exit(0)

RECORD = os.environ.get("CC_RECORD_STREAM", "0") == "1"
N = 4 * 1024 * 1024  # float32 elements: 16 MiB

side = torch.cuda.Stream()
x = torch.empty(N, device="cuda")
x.fill_(1.0)  # default stream
side.wait_stream(torch.cuda.current_stream())  # the side stream's use comes after the fill
with torch.cuda.stream(side):
    for _ in range(4):  # keep the side stream busy reading x for a while
        y = x * 2.0
if RECORD:
    x.record_stream(side)  # the fix: the block is not reused before the side stream is done
old_ptr = x.data_ptr()
del x  # the default stream no longer uses x
z = torch.empty(N, device="cuda")  # without record_stream: the same block again
reused = z.data_ptr() == old_ptr
z.fill_(3.0)  # default stream: may overwrite x's block while `side` still reads it
torch.cuda.synchronize()
print("torch_record_stream%s: block %s; y.sum() = %.1f (expected %.1f), z.sum() = %.1f"
      % (" (record_stream twin)" if RECORD else "",
         "reused" if reused else "not reused", y.sum().item(), 2.0 * N, z.sum().item()))
