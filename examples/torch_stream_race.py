"""Example (buggy): the PyTorch CUDA Sanitizer (CSAN) documentation example.

A tensor is filled on the default stream by torch.rand, then multiplied in place on a new side
stream without waiting for the default stream: the side stream may write `a` while torch.rand
is still writing it. cucheck streamcheck (and TORCH_CUDA_SANITIZER=1) report the race on `a`.
Fixed twin: torch_stream_ok.py. Skips cleanly (exit 0) without torch or a CUDA device.
"""
import sys

try:
    import torch
except ImportError:
    print("torch_stream_race: SKIPPED: PyTorch is not installed")
    sys.exit(0)
if not torch.cuda.is_available():
    print("torch_stream_race: SKIPPED: torch sees no CUDA device")
    sys.exit(0)

a = torch.rand(10000, device="cuda")
with torch.cuda.stream(torch.cuda.Stream()):
    torch.mul(a, 5, out=a)  # BUG: the side stream does not wait for torch.rand (default stream)
torch.cuda.synchronize()
print("torch_stream_race: multiplied a 10000-element tensor on a side stream without "
      "wait_stream: sum %.1f (expected about 25000)" % a.sum().item())
