#!/usr/bin/env bash
# gpu-debs.sh: downloads the Debian 12 packages that give the agent host frames with file:line
# (libdw, libelf and what they link) and zstd/lz4 into build-agent2/debs/, for a GPU machine
# that has no -dev packages and no network: the batch scripts there unpack them into /tmp/dwroot
# (tests/gpu/attribution/device_session.sh) when the machine lacks elfutils' headers. Without
# them the GPU runners' host-located rows (async errors, leaks, races' host stacks) fail: the
# agent's frames then carry function names only. Needs apt-get and network here; exits 0 and
# says so when either is missing.
set -u
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="$root/build-agent2/debs"
packages=(libdw-dev libdw1 libelf-dev libelf1 libunwind8 zlib1g-dev liblzma5 libbz2-1.0
          libzstd-dev liblz4-dev)
if ! command -v apt-get >/dev/null 2>&1; then
    echo "gpu-debs: no apt-get here: nothing downloaded"
    exit 0
fi
mkdir -p "$dest" || exit 0
if (cd "$dest" && apt-get download "${packages[@]}" >/dev/null 2>&1); then
    echo "gpu-debs: ${#packages[@]} packages in $dest (carry build-agent2/debs to the GPU machine)"
else
    echo "gpu-debs: apt-get download failed (no network?): $dest is incomplete"
fi
exit 0
