#!/usr/bin/env bash
# packaging_layout.sh: the Python package's own part (python/cucheck) against the build tree, laid
# out as the wheel lays it out (site-packages/cucheck/bin/cucheck, lib/cucheck/libcucheck_agent.so),
# without pip: `python -m cucheck` runs the executable with the same arguments, output and exit
# status; cucheck.executable()/agent_library()/sanitizer_library() name the package's files; a
# package without its native part fails with one line; pyproject.toml's version source still
# matches CMakeLists.txt. The wheel itself: packaging_pip.sh (opt-in). docs/install.md.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when python3 is absent.
set -u
BIN="$1"
SRC="$2"
BUILD="$3"
py="$(command -v python3)" || { echo "skip: python3 not found"; exit 77; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
unset CUCHECK_AGENT CUCHECK_EXE
fail=0
say_fail() { echo "FAIL $*"; fail=1; }

# The version scikit-build-core reads from CMakeLists.txt (pyproject.toml's regex provider).
regex="$(sed -n "s/^regex = '\(.*\)'$/\1/p" "$SRC/pyproject.toml")"
version="$("$py" - "$SRC/CMakeLists.txt" "$regex" <<'EOF'
import re, sys
m = re.search(sys.argv[2], open(sys.argv[1]).read())
print(m.group("value") if m else "")
EOF
)"
"$BIN" --version | grep -qx "cucheck $version" ||
    say_fail "pyproject.toml's version regex gives '$version'; cucheck says '$("$BIN" --version)'"

site="$tmp/site-packages"
pkg="$site/cucheck"
mkdir -p "$pkg/bin" "$pkg/lib/cucheck"
cp "$SRC"/python/cucheck/*.py "$pkg/"
cp "$BIN" "$pkg/bin/cucheck"
agent="$BUILD/src/agent/libcucheck_agent.so"
[ -f "$agent" ] && cp "$agent" "$pkg/lib/cucheck/"
export PYTHONPATH="$site"

# python -m cucheck is the executable: same stdout, same exit status, arguments passed as given.
same_as_binary() {
    local want_rc got_rc
    "$BIN" "$@" >"$tmp/want.out" 2>"$tmp/want.err"; want_rc=$?
    (cd "$tmp" && "$py" -m cucheck "$@") >"$tmp/got.out" 2>"$tmp/got.err"; got_rc=$?
    [ "$want_rc" = "$got_rc" ] || say_fail "python -m cucheck $*: exit $got_rc, the executable's $want_rc"
    cmp -s "$tmp/want.out" "$tmp/got.out" || say_fail "python -m cucheck $*: stdout differs"
    cmp -s "$tmp/want.err" "$tmp/got.err" || say_fail "python -m cucheck $*: stderr differs"
}
same_as_binary --version
same_as_binary --help
same_as_binary occupancy --arch sm_90 --threads 256 --regs 32
same_as_binary no-such-tool
same_as_binary occupancy --arch sm_90 --threads "2 56"
[ "$fail" = 0 ] && echo "ok   python -m cucheck runs the package's executable (output, exit status, arguments)"

# The package names its files.
"$py" - "$pkg" "$([ -f "$agent" ] && echo yes || echo no)" >"$tmp/paths.out" 2>&1 <<'EOF' ||
import os, sys
import cucheck
pkg, have_agent = os.path.realpath(sys.argv[1]), sys.argv[2] == "yes"
exe = cucheck.executable()
assert exe == os.path.join(pkg, "bin", "cucheck"), exe
agent = cucheck.agent_library()
if have_agent:
    assert agent == os.path.join(pkg, "lib", "cucheck", "libcucheck_agent.so"), agent
else:
    assert agent is None or not agent.startswith(pkg), agent
# A sanitizer wheel next to the package (site-packages/nvidia/cu13/lib) is found through sys.path.
lib = os.path.join(os.path.dirname(pkg), "nvidia", "cu13", "lib")
os.makedirs(lib)
open(os.path.join(lib, "libsanitizer-public.so"), "w").close()
os.environ["LD_LIBRARY_PATH"] = ""
assert cucheck.sanitizer_library() == os.path.join(lib, "libsanitizer-public.so"), cucheck.sanitizer_library()
print("ok")
EOF
    say_fail "cucheck's path functions: $(tail -3 "$tmp/paths.out")"
grep -qx ok "$tmp/paths.out" && echo "ok   cucheck.executable(), agent_library(), sanitizer_library() name the package's files"

# $CUCHECK_EXE overrides; a package without its executable fails with one line, exit 127.
CUCHECK_EXE="$BIN" "$py" -m cucheck --version | grep -qx "cucheck $version" ||
    say_fail "CUCHECK_EXE=$BIN was not used"
rm "$pkg/bin/cucheck"
(cd "$tmp" && "$py" -m cucheck --version) >"$tmp/none.out" 2>"$tmp/none.err"
rc=$?
[ "$rc" = 127 ] || say_fail "without the executable: exit $rc, want 127"
[ "$(wc -l <"$tmp/none.err")" = 1 ] && grep -q "^cucheck: the cucheck executable is not in " "$tmp/none.err" ||
    say_fail "without the executable: $(cat "$tmp/none.err")"
CUCHECK_EXE="$tmp/nowhere" "$py" -m cucheck --version 2>"$tmp/bad.err" >/dev/null
rc=$?
[ "$rc" = 127 ] && grep -q "CUCHECK_EXE=$tmp/nowhere: not an executable file" "$tmp/bad.err" ||
    say_fail "CUCHECK_EXE naming nothing: exit $rc: $(cat "$tmp/bad.err")"
[ "$fail" = 0 ] && echo "ok   CUCHECK_EXE overrides; a package without its executable says so in one line"
exit "$fail"
