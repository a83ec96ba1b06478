"""Where the installed cucheck package keeps its native parts.

The wheel lays them out under the package folder (pyproject.toml, cmake/PythonWheel.cmake):
    <package>/bin/cucheck                          the CLI
    <package>/lib/cucheck/libcucheck_agent.so      the agent the CLI injects
and NVIDIA's libsanitizer-public.so comes from the nvidia-cuda-sanitizer-api wheel
(site-packages/nvidia/cu13/lib, or nvidia/cuda_sanitizer_api/lib for CUDA 12), or from a CUDA
toolkit's compute-sanitizer/ folder. The agent finds that library itself (its RUNPATH); the
functions here tell a user or a tool (the pytest plugin, `cucheck doctor` checks) where things are.
"""

import os
import sys

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_AGENT_NAME = "libcucheck_agent.so"
_SANITIZER_NAME = "libsanitizer-public.so"


class NotInstalledError(RuntimeError):
    """The native part of the package is missing (a source checkout, or a broken install)."""


def executable():
    """Absolute path of the cucheck executable ($CUCHECK_EXE overrides, e.g. a build tree's)."""
    override = os.environ.get("CUCHECK_EXE")
    if override:
        if not os.access(override, os.X_OK):
            raise NotInstalledError("CUCHECK_EXE=%s: not an executable file" % override)
        return os.path.abspath(override)
    path = os.path.join(_PACKAGE_DIR, "bin", "cucheck")
    if not os.access(path, os.X_OK):
        raise NotInstalledError(
            "the cucheck executable is not in %s: install the package with pip "
            "(a source checkout has no native part), or set CUCHECK_EXE" % os.path.dirname(path))
    return path


def agent_library():
    """Absolute path of the agent the executable will inject, or None when it is missing.

    Follows the executable's own search (src/cli/agent_locate.c): $CUCHECK_AGENT, then the
    package's lib/cucheck folder, then the build-tree and install-tree places next to the
    executable.
    """
    override = os.environ.get("CUCHECK_AGENT")
    if override:
        return os.path.abspath(override) if os.path.isfile(override) else None
    candidates = [os.path.join(_PACKAGE_DIR, "lib", "cucheck", _AGENT_NAME)]
    try:
        exe_dir = os.path.dirname(os.path.realpath(executable()))
        candidates += [os.path.join(exe_dir, "src", "agent", _AGENT_NAME),
                       os.path.join(exe_dir, "..", "lib", "cucheck", _AGENT_NAME)]
    except NotInstalledError:
        pass
    for path in candidates:
        if os.path.isfile(path):
            return os.path.realpath(path)
    return None


def _sanitizer_candidates():
    """Folders that may hold libsanitizer-public.so, in the order the agent's loader tries them:
    $LD_LIBRARY_PATH first, then the sanitizer wheels on sys.path, then CUDA toolkits."""
    dirs = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":") if d]
    for entry in sys.path:
        nvidia = os.path.join(entry or ".", "nvidia")
        if os.path.isdir(nvidia):
            for sub in sorted(os.listdir(nvidia), reverse=True):   # cu13 before cu12
                dirs.append(os.path.join(nvidia, sub, "lib"))
    for var in ("CUDA_HOME", "CUDA_PATH"):
        root = os.environ.get(var)
        if root:
            dirs.append(os.path.join(root, "compute-sanitizer"))
    dirs.append("/usr/local/cuda/compute-sanitizer")
    return dirs


def sanitizer_library():
    """Absolute path of a libsanitizer-public.so the agent can use, or None when none is found."""
    for folder in _sanitizer_candidates():
        path = os.path.join(folder, _SANITIZER_NAME)
        if os.path.isfile(path):
            return os.path.realpath(path)
    return None
