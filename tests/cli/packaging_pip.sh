#!/usr/bin/env bash
# packaging_pip.sh: the wheel, end to end. scripts/build-wheels.sh builds it (pip, scikit-build-core,
# the project's CMake build), it is installed into a fresh virtual environment under /tmp with
# its nvidia-cuda-sanitizer-api dependency, and from there: `cucheck --version`/`--help`,
# `python -m cucheck --help`, `cucheck occupancy ...` work; the wheel holds no NVIDIA file; the
# installed agent resolves libsanitizer-public.so to the dependency's copy and loads into a
# program (`cucheck run -- /bin/true`, which needs no GPU); `cucheck doctor` runs. Then the same
# for a wheel built with --without-system-libs, which must link none of zstd, lz4, libdw.
# Building takes a minute or more and needs the package index (scikit-build-core and the
# sanitizer wheel; .deps/wheels from scripts/setup-deps.sh is offered to pip first), so the test
# runs only with CUCHECK_TEST_PACKAGING=1 and is skipped (77) otherwise. docs/install.md.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR.
set -u
SRC="$2"
BUILD="$3"
if [ "${CUCHECK_TEST_PACKAGING:-0}" != 1 ]; then
    echo "skip: builds and installs the pip wheel (a minute or more, needs the package index);" \
         "set CUCHECK_TEST_PACKAGING=1 to run it"
    exit 77
fi
py="$(command -v python3)" || { echo "skip: python3 not found"; exit 77; }
"$py" -m venv --help >/dev/null 2>&1 || { echo "skip: python3 has no venv module"; exit 77; }
tmp="$(mktemp -d /tmp/cucheck-packaging.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
unset CUCHECK_AGENT CUCHECK_EXE
export PIP_DISABLE_PIP_VERSION_CHECK=1
[ -d "$SRC/.deps/wheels" ] && export PIP_FIND_LINKS="$SRC/.deps/wheels"
fail=0
say_fail() { echo "FAIL $*"; fail=1; }
version="$(sed -n 's/^project(cucheck VERSION \([0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")"

# check_wheel NAME WHEEL: installs WHEEL into a fresh venv and checks what it installed.
check_wheel() {
    local name="$1" wheel="$2" venv="$tmp/$1-venv" site agent san rc real
    if "$py" -c 'import sys, zipfile; names = zipfile.ZipFile(sys.argv[1]).namelist()
bad = [n for n in names if n.startswith("nvidia/") or "sanitizer" in n.split("/")[-1]]
sys.exit(1 if bad else 0)' "$wheel"; then
        echo "ok   $name: the wheel holds no NVIDIA file"
    else
        say_fail "$name: the wheel holds NVIDIA files"
    fi
    "$py" -m venv "$venv" || { say_fail "$name: python3 -m venv failed"; return; }
    if ! "$venv/bin/pip" install -q "$wheel" >"$tmp/$name-install.log" 2>&1; then
        say_fail "$name: pip install: $(tail -3 "$tmp/$name-install.log")"; return
    fi
    site="$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')"

    "$venv/bin/cucheck" --version | grep -qx "cucheck $version" ||
        say_fail "$name: cucheck --version: $("$venv/bin/cucheck" --version 2>&1)"
    "$venv/bin/cucheck" --help | grep -q "^usage: cucheck" || say_fail "$name: cucheck --help"
    (cd "$tmp" && "$venv/bin/python" -m cucheck --help) | grep -q "^usage: cucheck" ||
        say_fail "$name: python -m cucheck --help"
    "$venv/bin/cucheck" occupancy --arch sm_90 --threads 256 --regs 32 >"$tmp/occ.out"; rc=$?
    [ "$rc" = 0 ] && grep -q "theoretical occupancy: 100.0%" "$tmp/occ.out" ||
        say_fail "$name: occupancy exited $rc: $(head -3 "$tmp/occ.out")"
    "$venv/bin/cucheck" no-such-tool 2>/dev/null; rc=$?
    [ "$rc" = 2 ] || say_fail "$name: cucheck no-such-tool exited $rc, want 2"
    [ "$fail" = 0 ] && echo "ok   $name: cucheck, python -m cucheck, occupancy from the venv"

    # The agent and its Sanitizer library: the package's and the dependency's.
    agent="$("$venv/bin/python" -c 'import cucheck; print(cucheck.agent_library())')"
    [ "$agent" = "$site/cucheck/lib/cucheck/libcucheck_agent.so" ] ||
        { say_fail "$name: cucheck.agent_library() = $agent"; return; }
    san="$(ldd "$agent" | awk '/libsanitizer-public/ {print $3}')"
    [ -n "$san" ] && [ "$(readlink -f "$san")" = "$(readlink -f "$site/nvidia/cu13/lib/libsanitizer-public.so")" ] ||
        say_fail "$name: the agent resolves libsanitizer-public.so to '$san'"
    if ldd "$agent" "$site/cucheck/bin/cucheck" | grep -q "not found"; then
        say_fail "$name: unresolved libraries: $(ldd "$agent" "$site/cucheck/bin/cucheck" | grep 'not found')"
    fi
    real="$(cd "$site" && pwd -P)"
    LD_DEBUG=libs LD_DEBUG_OUTPUT="$tmp/$name.ld" "$venv/bin/cucheck" run -- /bin/true \
        >"$tmp/run.out" 2>"$tmp/run.err"; rc=$?
    [ "$rc" = 0 ] || say_fail "$name: run -- /bin/true exited $rc: $(head -3 "$tmp/run.err")"
    cat "$tmp/$name.ld".* >"$tmp/$name.ld" 2>/dev/null
    grep -q "calling init: $real/cucheck/lib/cucheck/libcucheck_agent.so" "$tmp/$name.ld" ||
        say_fail "$name: the installed agent was not loaded into the program"
    grep -q "calling init: $real/.*nvidia/cu13/lib/libsanitizer-public.so" "$tmp/$name.ld" ||
        say_fail "$name: the dependency's libsanitizer-public.so was not loaded"
    "$venv/bin/cucheck" doctor >"$tmp/doctor.out" 2>&1; rc=$?
    [ "$rc" = 0 ] || say_fail "$name: doctor exited $rc: $(head -3 "$tmp/doctor.out")"
    [ "$fail" = 0 ] && echo "ok   $name: the installed agent loads with the dependency's libsanitizer-public.so; doctor runs"
}

build_wheel() {   # build_wheel NAME [build-wheels.sh args]: prints the wheel's path
    local name="$1"; shift
    CMAKE_BUILD_PARALLEL_LEVEL="${CMAKE_BUILD_PARALLEL_LEVEL:-2}" \
        "$SRC/scripts/build-wheels.sh" --out "$tmp/$name-dist" \
        --build-dir "$BUILD/packaging-wheel/$name" "$@" 2>"$tmp/$name-build.log" | tail -n 1
}

wheel="$(build_wheel default)"
if [ -z "$wheel" ] || [ ! -f "$wheel" ]; then
    echo "FAIL scripts/build-wheels.sh:"; tail -20 "$tmp/default-build.log"; exit 1
fi
echo "ok   built $(basename "$wheel")"
check_wheel default "$wheel"

wheel="$(build_wheel nosys --without-system-libs)"
if [ -z "$wheel" ] || [ ! -f "$wheel" ]; then
    echo "FAIL scripts/build-wheels.sh --without-system-libs:"; tail -20 "$tmp/nosys-build.log"; exit 1
fi
check_wheel nosys "$wheel"
site="$(ls -d "$tmp"/nosys-venv/lib/python*/site-packages)"
if readelf -d "$site/cucheck/bin/cucheck" "$site/cucheck/lib/cucheck/libcucheck_agent.so" |
        grep -E "NEEDED.*(zstd|lz4|libdw)"; then
    say_fail "nosys: --without-system-libs still links zstd/lz4/libdw"
else
    echo "ok   nosys: links none of zstd, lz4, libdw"
fi
exit "$fail"
