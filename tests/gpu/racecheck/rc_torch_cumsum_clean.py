"""racecheck's clean PyTorch row for CUB's look-back scan as PyTorch runs it: torch.cumsum of
64- and 32-bit integers from one tile to thousands (DeviceScanKernel with ScanTileState, the
decoupled look-back between blocks: strong 16-byte tile states, spin waits, warp-collective
reductions), each sum compared with the CPU's. Clean: racecheck must report nothing, and the
sums must come out right under it (exit 1 names the first wrong one). Exits 0; prints SKIPPED
and exits 0 without PyTorch or a CUDA device."""
import sys

try:
    import torch
except ImportError:
    print("rc_torch_cumsum_clean: SKIPPED: PyTorch is not installed")
    sys.exit(0)
if not torch.cuda.is_available():
    print("rc_torch_cumsum_clean: SKIPPED: torch sees no CUDA device")
    sys.exit(0)


def main():
    torch.manual_seed(0)
    bad = 0
    for dtype in (torch.int64, torch.int32):
        for n in (1000, 4096, 100_000, 1_000_000, 4_000_000):
            x = torch.randint(0, 7, (n,), dtype=dtype)
            want = torch.cumsum(x, 0)
            for _ in range(2):
                got = torch.cumsum(x.cuda(), 0).cpu()
                if not torch.equal(got, want):
                    i = int((got != want).nonzero()[0])
                    print("rc_torch_cumsum_clean: wrong cumsum of %d %s at %d: %d, want %d"
                          % (n, dtype, i, int(got[i]), int(want[i])))
                    bad = 1
                    break
    print("rc_torch_cumsum_clean: %s" % ("WRONG" if bad else "sums right"))
    return bad


if __name__ == "__main__":
    sys.exit(main())
