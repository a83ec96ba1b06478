#!/usr/bin/env bash
# Replays every scenario tests/scenarios/<tool>/*.scn through `cucheck replay --tool <tool>` and
# checks its findings against the expectations written in the scenario itself:
#   #expect KIND [TEXT...]   one distinct finding of KIND whose JSON line contains each TEXT
#                            (TEXTs separated by ' && ')
#   #expect-none             no findings at all (the clean twin)
#   #expect-note TEXT        a note containing TEXT
#   #expect-absent TEXT      no finding contains TEXT (what a rule must rule out) outside its
#                            "kernel_mangled" fields, where a mangled kernel name belongs
#   #expect-text TEXT        the text report (--format text: findings, notes, and what the tool
#                            printed, such as the profile's summary) contains TEXT
#   #expect-text-absent TEXT the text report does not contain TEXT
#   #options OPTIONS         tool options for the replay (split on blanks), e.g.
#                            `#options --track-unused-memory`
# Every finding must be expected: extra findings fail the scenario. The replay must read the
# whole scenario (exit 0): a line it cannot parse ends the replay with exit 1 and fails the
# scenario, so that a typo in a clean twin cannot pass by replaying nothing. A comment that looks
# like a directive but is none (`# expect`, `#expect-nothing`) fails it too.
# Usage: run.sh CUCHECK_BIN SCENARIO_DIR
set -uo pipefail
cucheck="$1"
dir="$2"
here="$(cd "$(dirname "$0")" && pwd)"
fail=0
count=0
for scn in "$dir"/*/*.scn; do
  [ -e "$scn" ] || continue
  tool="$(basename "$(dirname "$scn")")"
  count=$((count + 1))
  read -r -a opts <<<"$(sed -n 's/^#options //p' "$scn" | head -n 1)"
  out="$("$cucheck" replay --tool "$tool" "${opts[@]}" --format json "$scn" 2>/tmp/cucheck-scn-err.$$)"
  rc=$?
  if [ $rc -ne 0 ]; then
    echo "FAIL $scn: replay exited $rc (1: the scenario could not be read to its end): $(cat /tmp/cucheck-scn-err.$$)"
    fail=$((fail + 1))
    continue
  fi
  text=/tmp/cucheck-scn-text.$$
  : > "$text"
  if grep -q '^#expect-text' "$scn"; then
    "$cucheck" replay --tool "$tool" "${opts[@]}" --format text "$scn" > "$text" 2>&1
  fi
  if ! python3 "$here/check_expect.py" "$scn" "$text" <<<"$out"; then
    echo "FAIL $scn"
    echo "$out" | sed 's/^/    /'
    fail=$((fail + 1))
  fi
done
rm -f /tmp/cucheck-scn-err.$$ /tmp/cucheck-scn-text.$$
echo "scenarios: $count run, $fail failed"
[ $count -gt 0 ] && [ $fail -eq 0 ]
