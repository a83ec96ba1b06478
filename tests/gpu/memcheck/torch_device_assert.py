"""An index out of range on CUDA: PyTorch's indexing kernel raises a device-side assert, and the
program stops with a RuntimeError (exit status 1). Under `cucheck memcheck` it must stop the same
way (the program's own caching allocator is kept) and the faulting launch is reported with the
Python frames that made it. With FIXED=1 the index is in range and nothing must be reported."""
import os
import sys

try:
    import torch
except ImportError as e:  # pragma: no cover - depends on the machine
    print(f"skipped: {e}")
    sys.exit(0)


def gather_rows(table, rows):
    return table[rows]  # BUG: rows holds 12, table has 10 rows


def main():
    if not torch.cuda.is_available():
        print("skipped: no CUDA device")
        return 0
    table = torch.arange(40, dtype=torch.float32, device="cuda").reshape(10, 4)
    last = 9 if os.environ.get("FIXED") == "1" else 12
    rows = torch.tensor([3, last], device="cuda")
    picked = gather_rows(table, rows)
    torch.cuda.synchronize()  # the device-side assert surfaces here as a RuntimeError
    print(f"picked {picked.sum().item():.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
