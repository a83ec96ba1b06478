#!/usr/bin/env bash
# agent_pyframes.sh: the agent's GIL-free walk of Python frames (src/agent/host_python*.c), on the
# CPU. For every CPython found (python3 on PATH, /usr/bin/python3, python3.10-3.13 on PATH,
# pyenv's versions; or the list in $CUCHECK_TEST_PYTHONS): tests/agent/py_frames_test.py calls
# libcc_py_probe.so through ctypes.CDLL (GIL released, as in PyTorch) and PyDLL (GIL held) and
# checks file:line and function names; the agent's offset table is compared with offsetof()
# from that interpreter's own headers (tests/agent/py_offsets.c) when they are installed; and
# with the agent preloaded (CUCHECK_QUIET=1), `python -c pass` must exit 0 with nothing on stderr. Versions the agent does not know
# (before 3.10, after 3.13) must report no frames and are counted as skipped.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 if no CPython is found or the probe is not built.
set -u
SRC="$2"
BIN=$(cd "$3" && pwd)
PROBE="$BIN/tests/agent/libcc_py_probe.so"
AGENT="$BIN/src/agent/libcucheck_agent.so"
TEST="$SRC/tests/agent/py_frames_test.py"
[ -f "$PROBE" ] || { echo "skip: $PROBE not built"; exit 77; }
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

if [ -n "${CUCHECK_TEST_PYTHONS:-}" ]; then
    candidates=($CUCHECK_TEST_PYTHONS)
else
    candidates=()
    for p in python3 /usr/bin/python3 python3.10 python3.11 python3.12 python3.13 \
             "${PYENV_ROOT:-$HOME/.pyenv}"/versions/3.*/bin/python3; do
        command -v "$p" >/dev/null 2>&1 && candidates+=("$(command -v "$p")")
    done
fi

seen=" "
tested=0 failed=0 skipped=0
for py in "${candidates[@]}"; do
    # One run per distinct interpreter (a shim and the binary it runs are the same).
    key=$("$py" -c 'import sys; print(sys.prefix + "|" + sys.version.split()[0])' 2>/dev/null) || continue
    case "$seen" in *" $key "*) continue ;; esac
    seen="$seen$key "
    ver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    echo "== $py ($ver)"
    out=$("$py" "$TEST" "$PROBE" 2>&1)
    rc=$?
    echo "$out"
    if [ $rc -eq 77 ]; then # not in the agent's table: said so, and nothing was read
        echo "skip: CPython $ver has no layout in the agent (reported, no frames read)"
        skipped=$((skipped + 1))
        continue
    fi
    case "$ver" in
        3.10|3.11|3.12|3.13) ;;
        *) echo "FAIL: CPython $ver is not in the agent's table but was not refused"
           failed=$((failed + 1)); continue ;;
    esac
    tested=$((tested + 1))
    [ $rc -eq 0 ] || { echo "FAIL: frames test under $py"; failed=$((failed + 1)); continue; }

    # The offset table against this interpreter's headers.
    inc=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
    if [ -f "$inc/Python.h" ] && { [ "$ver" = 3.10 ] || [ -f "$inc/internal/pycore_frame.h" ]; }; then
        if cc -I"$inc" -o "$TMP/offsets" "$SRC/tests/agent/py_offsets.c" 2>"$TMP/cc.err"; then
            "$TMP/offsets" >"$TMP/headers.txt"
            "$py" "$TEST" "$PROBE" --layout >"$TMP/table.txt"
            missing=$(grep -vxF -f "$TMP/table.txt" "$TMP/headers.txt")
            if [ -n "$missing" ]; then
                echo "FAIL: the agent's offsets for $ver differ from its headers:"
                echo "$missing" | sed 's/^/  headers say /'
                failed=$((failed + 1))
            else
                echo "ok   offsets match $inc ($(wc -l <"$TMP/headers.txt") fields)"
            fi
        else
            echo "note: could not compile the offset probe against $inc:"; head -3 "$TMP/cc.err"
        fi
    else
        echo "note: no headers for $ver ($inc): offset cross-check skipped"
    fi

    # The agent preloaded: Python runs as without it, and the walk still works beside it.
    if [ -f "$AGENT" ]; then
        # CUCHECK_QUIET: the run tool's own summary is not the agent changing the program.
        err=$(CUCHECK_QUIET=1 LD_PRELOAD="$AGENT" "$py" -c 'pass' 2>&1 >/dev/null)
        prc=$?
        if [ $prc -ne 0 ] || [ -n "$err" ]; then
            echo "FAIL: LD_PRELOAD=agent $py -c pass: exit $prc, stderr: $err"
            failed=$((failed + 1))
        elif ! CUCHECK_QUIET=1 LD_PRELOAD="$AGENT" "$py" "$TEST" "$PROBE" >"$TMP/preload.txt" 2>&1; then
            echo "FAIL: frames test with the agent preloaded:"; cat "$TMP/preload.txt"
            failed=$((failed + 1))
        else
            echo "ok   with the agent preloaded: python -c pass is silent, frames test passes"
        fi
    fi
done

echo "CPython versions tested: $tested, skipped: $skipped, failed: $failed"
[ $failed -eq 0 ] || exit 1
[ $tested -gt 0 ] || { echo "skip: no supported CPython found"; exit 77; }
exit 0
