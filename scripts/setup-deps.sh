#!/usr/bin/env bash
# setup-deps.sh: idempotent set-up of cucheck's optional build dependencies on Debian 12.
#  1. the Debian -dev packages the build uses (zstd, lz4, libdw, pkg-config), via apt-get, only
#     when missing and only when running as root with apt available;
#  2. the Compute Sanitizer API (headers + libsanitizer-public.so) when the CUDA toolkit has no
#     compute-sanitizer/ folder: the `nvidia-cuda-sanitizer-api` wheel matching nvcc's CUDA
#     version is downloaded with pip and unpacked into <repo>/.deps/ (ignored by git).
# Everything is optional: without network (e.g. on a GPU machine) each step says what it skipped
# and the script still exits 0. Set CUCHECK_SETUP_OFFLINE=1 to skip all downloads.
set -u

repo_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
deps_dir="${CUCHECK_DEPS_DIR:-$repo_dir/.deps}"
offline="${CUCHECK_SETUP_OFFLINE:-0}"

say() { printf 'setup-deps: %s\n' "$*"; }

# ---- 1. Debian packages ----------------------------------------------------------------------
install_debian_packages() {
    local wanted=(libzstd-dev liblz4-dev libdw-dev libunwind8 pkg-config) missing=() p
    if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
        say "no dpkg/apt-get: skipping Debian packages"
        return 0
    fi
    for p in "${wanted[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$p")
        fi
    done
    if [ "${#missing[@]}" -eq 0 ]; then
        say "Debian packages present: ${wanted[*]}"
        return 0
    fi
    if [ "$(id -u)" -ne 0 ]; then
        say "not root: skipping apt-get install ${missing[*]} (install them yourself for zstd/lz4/libdw support)"
        return 0
    fi
    if [ "$offline" = 1 ]; then
        say "offline: skipping apt-get install ${missing[*]}"
        return 0
    fi
    say "installing ${missing[*]}"
    if ! { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 install -y -q --no-install-recommends "${missing[@]}" \
             >/dev/null 2>&1 ||
           { apt-get -o DPkg::Lock::Timeout=120 update -q >/dev/null 2>&1 &&
             DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 install -y -q --no-install-recommends "${missing[@]}" \
             >/dev/null 2>&1; }; }; then
        say "apt-get install failed (no network?): continuing without ${missing[*]}"
    fi
    return 0
}

# ---- 2. Compute Sanitizer API ------------------------------------------------------------------
find_cuda_root() {
    local nvcc
    if [ -n "${CUDA_HOME:-}" ] && [ -x "$CUDA_HOME/bin/nvcc" ]; then echo "$CUDA_HOME"; return 0; fi
    if [ -n "${CUDA_PATH:-}" ] && [ -x "$CUDA_PATH/bin/nvcc" ]; then echo "$CUDA_PATH"; return 0; fi
    nvcc="$(command -v nvcc 2>/dev/null || true)"
    if [ -z "$nvcc" ] && [ -x /usr/local/cuda/bin/nvcc ]; then nvcc=/usr/local/cuda/bin/nvcc; fi
    [ -n "$nvcc" ] || return 1
    nvcc="$(readlink -f "$nvcc")"
    dirname "$(dirname "$nvcc")"
}

# Prints "MAJOR.MINOR" from `nvcc --version` ("... release 13.0, V13.0.88").
cuda_version() {
    "$1/bin/nvcc" --version 2>/dev/null | sed -n 's/.*release \([0-9][0-9]*\.[0-9][0-9]*\).*/\1/p' | head -n 1
}

have_sanitizer_under() {
    [ -n "$(find "$1/" -name sanitizer.h -print -quit 2>/dev/null)" ] &&
        [ -n "$(find "$1/" -name 'libsanitizer-public.so' -print -quit 2>/dev/null)" ]
}

install_sanitizer_api() {
    local cuda_root version major pkg spec wheel_dir wheel
    if ! cuda_root="$(find_cuda_root)"; then
        say "no CUDA toolkit (nvcc) found: skipping the Compute Sanitizer API (the agent will not be built)"
        return 0
    fi
    if [ -f "$cuda_root/compute-sanitizer/include/sanitizer.h" ]; then
        say "Compute Sanitizer API found in $cuda_root/compute-sanitizer"
        return 0
    fi
    if [ -d "$deps_dir" ] && have_sanitizer_under "$deps_dir"; then
        say "Compute Sanitizer API already unpacked under $deps_dir"
        return 0
    fi
    version="$(cuda_version "$cuda_root")"
    if [ -z "$version" ]; then
        say "cannot read the CUDA version from $cuda_root/bin/nvcc: skipping the Compute Sanitizer API"
        return 0
    fi
    major="${version%%.*}"
    if [ "$major" -ge 13 ]; then
        pkg="nvidia-cuda-sanitizer-api"
    else
        pkg="nvidia-cuda-sanitizer-api-cu${major}"
    fi
    spec="${pkg}==${version}.*"
    if [ "$offline" = 1 ]; then
        say "offline: not downloading $spec"
        return 0
    fi
    if ! command -v python3 >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
        say "no python3 -m pip: cannot download $spec (the agent will not be built)"
        return 0
    fi
    wheel_dir="$deps_dir/wheels"
    mkdir -p "$wheel_dir" || { say "cannot create $wheel_dir"; return 0; }
    wheel="$(find "$wheel_dir" -name "$(echo "$pkg" | tr - _)-${version}.*.whl" -print -quit 2>/dev/null)"
    if [ -z "$wheel" ]; then
        say "downloading $spec (CUDA $version) into $wheel_dir"
        if ! python3 -m pip download --quiet --disable-pip-version-check --no-deps \
                --only-binary=:all: --dest "$wheel_dir" "$spec" >/dev/null 2>&1; then
            say "pip download of $spec failed (no network?): the agent will not be built"
            return 0
        fi
        wheel="$(find "$wheel_dir" -name "$(echo "$pkg" | tr - _)-${version}.*.whl" -print -quit)"
    fi
    if [ -z "$wheel" ]; then
        say "pip reported success but no wheel for $spec is in $wheel_dir"
        return 0
    fi
    if ! command -v unzip >/dev/null 2>&1; then
        # A wheel is a zip file; Python can unpack it when unzip is missing.
        python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' \
            "$wheel" "$deps_dir" || { say "cannot unpack $wheel"; return 0; }
    else
        unzip -q -o "$wheel" -d "$deps_dir" || { say "cannot unpack $wheel"; return 0; }
    fi
    if have_sanitizer_under "$deps_dir"; then
        say "Compute Sanitizer API unpacked under $deps_dir (found by cmake/FindComputeSanitizer.cmake)"
    else
        say "unpacked $wheel but found no sanitizer.h/libsanitizer-public.so in it"
    fi
    return 0
}

install_debian_packages
install_sanitizer_api
exit 0
