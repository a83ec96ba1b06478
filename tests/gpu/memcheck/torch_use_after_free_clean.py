"""Clean twin of torch_use_after_free.py: the same program, its kernel scaling a live tensor
(FIXED=1), with the same short-lived tensors queued and cancelled: nothing must be reported."""
import os
import sys

os.environ["FIXED"] = "1"
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch_use_after_free  # noqa: E402  (after FIXED is set)

if __name__ == "__main__":
    sys.exit(torch_use_after_free.main())
