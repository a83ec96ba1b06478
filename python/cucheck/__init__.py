"""cucheck: finds and explains bugs and bottlenecks in CUDA programs and PyTorch scripts.

This package wraps the native tool: the `cucheck` command and `python -m cucheck` run the
executable installed inside the package with the same arguments and exit status. The functions
below say where the native parts are (docs/install.md).
"""

from cucheck._locate import NotInstalledError, agent_library, executable, sanitizer_library

from importlib.metadata import PackageNotFoundError, version as _dist_version

try:
    __version__ = _dist_version("cucheck")
except PackageNotFoundError:   # imported from a source checkout
    __version__ = "0+unknown"

__all__ = ["NotInstalledError", "agent_library", "executable", "sanitizer_library",
           "__version__"]
