#!/usr/bin/env bash
# build-wheels.sh: builds the cucheck wheel (pyproject.toml: scikit-build-core over the CMake build)
# with `pip wheel`, then, when auditwheel and patchelf are available, repairs it into a manylinux
# wheel: libzstd, liblz4 and libdw (and what they need) are copied into it so that it works where
# they are absent; NVIDIA's libsanitizer-public.so is never copied (it is the
# nvidia-cuda-sanitizer-api dependency). Without auditwheel the wheel keeps the linux_x86_64 tag
# and needs those libraries at run time (or use --without-system-libs). docs/install.md.
#
# Usage: scripts/build-wheels.sh [--out DIR] [--without-system-libs] [--no-isolation]
#                                [--plat TAG] [--build-dir DIR]
#   --out DIR               where the wheel goes (default: build-wheel/dist)
#   --without-system-libs   link none of zstd, lz4, libdw (-DCUCHECK_USE_SYSTEM_LIBS=OFF)
#   --no-isolation          build in the current Python environment (pip --no-build-isolation;
#                           it needs scikit-build-core; no package index needed)
#   --plat TAG              auditwheel's target, e.g. manylinux_2_28_x86_64 (default: the oldest
#                           policy the built files satisfy)
#   --build-dir DIR         CMake build folder (default: pyproject.toml's build-wheel/<tag>)
# Environment: PYTHON (default python3), CMAKE_BUILD_PARALLEL_LEVEL (default: nproc).
# Needs: the CUDA toolkit (nvcc), CMake >= 3.25, a C compiler, Python with pip; the package
# index (scikit-build-core and nvidia-cuda-sanitizer-api for the build environment) unless
# --no-isolation. Prints the wheel's path on its last line.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
py="${PYTHON:-python3}"
out="$root/build-wheel/dist"
system_libs=ON
isolation=1
plat=""
build_dir=""

die() { printf 'build-wheels: %s\n' "$*" >&2; exit 1; }
say() { printf 'build-wheels: %s\n' "$*" >&2; }

while [ $# -gt 0 ]; do
    case "$1" in
        --out) [ $# -ge 2 ] || die "--out needs a folder"; out="$2"; shift 2 ;;
        --without-system-libs) system_libs=OFF; shift ;;
        --no-isolation) isolation=0; shift ;;
        --plat) [ $# -ge 2 ] || die "--plat needs a tag"; plat="$2"; shift 2 ;;
        --build-dir) [ $# -ge 2 ] || die "--build-dir needs a folder"; build_dir="$2"; shift 2 ;;
        -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown argument '$1' (see --help)" ;;
    esac
done

command -v "$py" >/dev/null 2>&1 || die "no Python interpreter '$py' (set PYTHON)"
"$py" -m pip --version >/dev/null 2>&1 || die "$py has no pip"
export CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc 2>/dev/null || echo 2)}"

mkdir -p "$out"
out="$(cd "$out" && pwd)"
raw="$(mktemp -d "${TMPDIR:-/tmp}/cucheck-wheel.XXXXXX")"
trap 'rm -rf "$raw"' EXIT

args=(wheel --no-deps --disable-pip-version-check -w "$raw")
[ "$isolation" = 1 ] || args+=(--no-build-isolation)
args+=("--config-settings=cmake.define.CUCHECK_USE_SYSTEM_LIBS=$system_libs")
if [ -n "$build_dir" ]; then
    args+=("--config-settings=build-dir=$build_dir")
elif [ "$system_libs" = OFF ]; then
    args+=("--config-settings=build-dir=build-wheel/{wheel_tag}-without-system-libs")
fi
say "pip ${args[*]} $root"
"$py" -m pip "${args[@]}" "$root" >&2 || die "pip wheel failed (see above)"
wheel="$(find "$raw" -name 'cucheck-*.whl' -print -quit)"
[ -n "$wheel" ] || die "pip wheel wrote no cucheck wheel"

# auditwheel: from PATH, else as a module of $py; patchelf likewise (pip installs both).
auditwheel=()
if command -v auditwheel >/dev/null 2>&1; then
    auditwheel=(auditwheel)
elif "$py" -m auditwheel --version >/dev/null 2>&1; then
    auditwheel=("$py" -m auditwheel)
fi
if ! command -v patchelf >/dev/null 2>&1; then
    py_bin="$(dirname "$("$py" -c 'import sys; print(sys.executable)')")"
    [ -x "$py_bin/patchelf" ] && export PATH="$py_bin:$PATH"
fi

if [ "${#auditwheel[@]}" -gt 0 ] && command -v patchelf >/dev/null 2>&1; then
    repair=(repair --exclude libsanitizer-public.so -w "$raw/repaired")
    [ -z "$plat" ] || repair+=(--plat "$plat")
    say "${auditwheel[*]} ${repair[*]} $(basename "$wheel")"
    "${auditwheel[@]}" "${repair[@]}" "$wheel" >&2 || die "auditwheel repair failed (see above)"
    result="$(find "$raw/repaired" -name 'cucheck-*.whl' -print -quit)"
    [ -n "$result" ] || die "auditwheel wrote no wheel"
    cp "$result" "$out/"
    echo "$out/$(basename "$result")"
else
    [ -z "$plat" ] || die "--plat $plat needs auditwheel and patchelf (pip install auditwheel patchelf)"
    cp "$wheel" "$out/"
    say "auditwheel/patchelf not found: $(basename "$wheel") keeps the linux tag and links this" \
        "machine's zstd/lz4/libdw when they were found (pip install auditwheel patchelf, or" \
        "--without-system-libs, for a wheel that works without them)"
    echo "$out/$(basename "$wheel")"
fi
