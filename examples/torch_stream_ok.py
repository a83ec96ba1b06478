"""Example (fixed): the twin of torch_stream_race.py.

The side stream waits for the default stream before it multiplies `a` in place, and the default
stream waits for the side stream before it reads `a` again, so every access to `a` is ordered.
cucheck streamcheck (and TORCH_CUDA_SANITIZER=1) should report nothing. Skips cleanly (exit 0)
without torch or a CUDA device.
"""
import sys

try:
    import torch
except ImportError:
    print("torch_stream_ok: SKIPPED: PyTorch is not installed")
    sys.exit(0)
if not torch.cuda.is_available():
    print("torch_stream_ok: SKIPPED: torch sees no CUDA device")
    sys.exit(0)

a = torch.rand(10000, device="cuda")
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    s.wait_stream(torch.cuda.default_stream())  # FIX: order the multiply after torch.rand
    torch.mul(a, 5, out=a)
torch.cuda.current_stream().wait_stream(s)  # FIX: order the read below after the multiply
total = a.sum().item()
print("torch_stream_ok: multiplied a 10000-element tensor on a side stream after wait_stream: "
      "sum %.1f (expected about 25000)" % total)
