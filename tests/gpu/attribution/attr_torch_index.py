# PyTorch: an index out of range trips the indexing kernel's device assert (cudaErrorAssert),
# which surfaces at the later synchronize; the launch is attributed to this file's line.
import sys
import torch

if not torch.cuda.is_available():
    print("BENCH_SKIPPED no CUDA")
    sys.exit(0)
x = torch.randn(1000, device="cuda")
idx = torch.tensor([5, 2000], device="cuda")
y = x * 2
z = y[idx]  # BUG: index 2000 is out of range for 1000 elements
try:
    torch.cuda.synchronize()
    print("no error")
    sys.exit(0)
except RuntimeError as err:
    print("error:", str(err).splitlines()[0])
    sys.exit(1)
