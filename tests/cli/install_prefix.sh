#!/usr/bin/env bash
# install_prefix.sh: `cmake --install BUILD --prefix TMP` gives a tree that works on its own: the
# installed cucheck finds the installed agent (never the build tree's, and $CUCHECK_AGENT unset),
# the agent loads into a program (its Sanitizer library resolved from the installed tree), and
# `cucheck doctor` runs; the same tree still works after it is moved to another prefix.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when the agent was not built or cmake is absent.
set -u
BUILD="$3"
[ -f "$BUILD/src/agent/libcucheck_agent.so" ] || { echo "skip: agent not built"; exit 77; }
cmake="$(sed -n 's/^CMAKE_COMMAND:INTERNAL=//p' "$BUILD/CMakeCache.txt" 2>/dev/null)"
[ -x "$cmake" ] || cmake="$(command -v cmake)" || { echo "skip: cmake not found"; exit 77; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
unset CUCHECK_AGENT
fail=0
say_fail() { echo "FAIL $*"; fail=1; }

if ! "$cmake" --install "$BUILD" --prefix "$tmp/prefix" >"$tmp/install.log" 2>&1; then
    echo "FAIL cmake --install:"; cat "$tmp/install.log"; exit 1
fi
agent="$(find "$tmp/prefix" -name libcucheck_agent.so -type f)"
[ -x "$tmp/prefix/bin/cucheck" ] || say_fail "no bin/cucheck in the installed tree"
[ -n "$agent" ] || { echo "FAIL no libcucheck_agent.so in the installed tree"; exit 1; }
echo "ok   installed: bin/cucheck, ${agent#"$tmp/prefix/"}"

# The installed agent's libraries resolve (the Sanitizer library from the installed tree or
# the toolkit, never from the build's private copy when that was installed alongside).
if ldd "$agent" 2>&1 | grep -q "not found"; then
    say_fail "installed agent has unresolved libraries: $(ldd "$agent" | grep 'not found')"
fi
if [ -f "$(dirname "$agent")/libsanitizer-public.so" ]; then
    san="$(ldd "$agent" | awk '/libsanitizer-public/ {print $3}')"
    [ "$san" = "$(dirname "$agent")/libsanitizer-public.so" ] ||
        say_fail "installed agent resolves libsanitizer-public.so to '$san'"
fi

# run_installed NAME PREFIX: the installed cucheck runs /bin/true with its own agent.
run_installed() {
    local name="$1" bin="$2/bin/cucheck" real out err rc
    real="$(cd "$2" && pwd -P)"
    out="$tmp/$name.out" err="$tmp/$name.err"
    # LD_DEBUG=libs shows which agent file the program actually loaded.
    LD_DEBUG=libs LD_DEBUG_OUTPUT="$tmp/$name.ld" "$bin" run -- /bin/true >"$out" 2>"$err"
    rc=$?
    [ "$rc" = 0 ] || say_fail "$name: run -- /bin/true exited $rc: $(head -3 "$err")"
    if grep -q "cannot find the agent" "$out" "$err"; then
        say_fail "$name: $(grep -h "cannot find the agent" "$out" "$err")"
    fi
    grep -q -e "^========= run: " -e "^========= no CUDA driver (libcuda.so.1)" "$out" ||
        say_fail "$name: no agent summary: $(head -3 "$out")"
    if ! cat "$tmp/$name.ld".* 2>/dev/null |
            grep -q "calling init: $real/.*libcucheck_agent.so"; then
        say_fail "$name: the agent under $real was not loaded"
    fi
    rm -f "$tmp/$name.ld".*
    "$bin" doctor >"$out" 2>"$err"; rc=$?
    [ "$rc" = 0 ] || say_fail "$name: doctor exited $rc: $(head -3 "$err")"
    grep -q "^Verdicts" "$out" || say_fail "$name: doctor printed no verdicts"
    [ "$fail" = 0 ] && echo "ok   $name: run -- /bin/true and doctor with the installed agent"
}
run_installed installed "$tmp/prefix"
# The tree is relocatable: moved elsewhere, it still finds its agent.
mv "$tmp/prefix" "$tmp/moved"
run_installed moved "$tmp/moved"
exit $fail
