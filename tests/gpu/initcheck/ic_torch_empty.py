"""initcheck's PyTorch row (tests/gpu/initcheck/expected.txt): a tensor made by torch.empty is
read by a kernel before anything wrote it. The block the caching allocator hands over is
uninitialised (also when it held an earlier tensor's data: the first tensor is written and freed
first, so that its block is reused). initcheck reports the read with the Python frames of the
launch and of torch.empty. Exits 0; prints SKIPPED and exits 0 without PyTorch or a CUDA
device."""
import sys

try:
    import torch
except ImportError:
    print("ic_torch_empty: SKIPPED: PyTorch is not installed")
    sys.exit(0)
if not torch.cuda.is_available():
    print("ic_torch_empty: SKIPPED: torch sees no CUDA device")
    sys.exit(0)


def main():
    old = torch.ones(4096, device="cuda")  # written, then freed to the cache
    del old
    x = torch.empty(4096, device="cuda")  # the same block, handed over again
    y = x.abs()  # BUG: reads x, never written
    torch.cuda.synchronize()
    print("done", y.shape[0])


if __name__ == "__main__":
    main()
