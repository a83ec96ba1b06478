#!/usr/bin/env bash
# cucheck doctor on this machine (GPU or not): usage errors exit 2, --json is one valid JSON
# object, `-- program` keeps stdout clean and reports what the program loaded, and a binary
# without device code is said to have none. GPUs are hidden (CUDA_VISIBLE_DEVICES=) so the
# result does not depend on the machine.
set -u
CUCHECK="$1"; BIN_DIR="$3"
fail() { echo "FAIL: $*"; exit 1; }
command -v python3 >/dev/null || { echo "no python3"; exit 77; }
export CUDA_VISIBLE_DEVICES=

"$CUCHECK" doctor --bogus >/dev/null 2>&1; [ $? -eq 2 ] || fail "unknown option must exit 2"
"$CUCHECK" doctor --cc banana >/dev/null 2>&1; [ $? -eq 2 ] || fail "bad --cc must exit 2"
"$CUCHECK" doctor -- >/dev/null 2>&1; [ $? -eq 2 ] || fail "-- without program must exit 2"
"$CUCHECK" doctor --help | grep -q "usage: cucheck doctor" || fail "--help"

out="$BIN_DIR/doctor_cli.json"
"$CUCHECK" doctor --no-search --json --binary /bin/sh -- /bin/echo hello-from-program >"$out"
rc=$?
[ $rc -eq 0 ] || fail "doctor exited $rc"
python3 - "$out" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
assert d["tool"] == "doctor", d
p = d["program"]
assert p["ran"] == 1 and p["status"] == 0, p
assert p["objects_loaded"] >= 1, p
bins = {b["path"]: b for b in d["binaries"]}
sh = [b for b in d["binaries"] if b["label"] == "binary"]
assert sh and sh[0]["images"]["has_device_code"] == 0, d["binaries"]
levels = {v["level"] for v in d["verdicts"]}
assert levels <= {"OK", "WARN", "FAIL", "INFO"}, levels
assert "FAIL" not in levels, d["verdicts"]
if not d["driver"]["loaded"]:
    assert any("no NVIDIA driver found" in v["text"] for v in d["verdicts"]), d["verdicts"]
PY

text=$("$CUCHECK" doctor --no-search 2>&1) || fail "text mode exited non-zero: $text"
echo "$text" | grep -q "^Verdicts" || fail "no Verdicts section"
echo "$text" | grep -q "^Summary: " || fail "no summary"
echo "doctor_cli: ok"
