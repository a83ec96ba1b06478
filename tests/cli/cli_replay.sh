#!/usr/bin/env bash
# cucheck replay: drives a tool over a scenario or a .cuevt recording. The run tool reports the
# failed API call of data/api_error.scn as an error finding of kind api-error; --error-exitcode
# applies to it; the clean twin has no findings; every output format is well formed; a damaged
# input gives exit status 1 with the offset, and the findings before the damage still print.
source "$(dirname "$0")/data/common.bash"
SCN="$DATA/api_error.scn"
CLEAN="$DATA/clean.scn"

run_cc replay "$SCN"
expect_rc 0 "replay (text)"
expect_in "$OUT" "api-error" "text output names the kind"
expect_in "$OUT" "cudaMalloc" "text output names the call"
expect_in "$ERR" "1 error" "summary counts the error"

run_cc replay --tool run --format json "$SCN"
expect_rc 0 "replay (json)"
python3 - "$OUT" <<'PY' || fail "json output: not the expected JSON Lines: $(cat "$OUT")"
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
finds = [r for r in recs if r.get("type", "finding") == "finding"]
assert len(finds) == 1, finds
assert finds[0]["kind"] == "api-error" and finds[0]["severity"] == "error", finds[0]
PY

run_cc replay --format sarif "$SCN"
expect_rc 0 "replay (sarif)"
python3 - "$OUT" <<'PY' || fail "sarif output: not valid SARIF with one result: $(head -c 600 "$OUT")"
import json, sys
log = json.load(open(sys.argv[1]))
assert log["version"] == "2.1.0"
res = log["runs"][0]["results"]
assert len(res) == 1 and res[0]["ruleId"] == "api-error", res
PY

# --error-exitcode: before the command, after it, after the file.
run_cc --error-exitcode 9 replay "$SCN"
expect_rc 9 "--error-exitcode before replay"
run_cc replay --error-exitcode=5 "$SCN"
expect_rc 5 "--error-exitcode=N after replay"
run_cc replay "$SCN" --error-exitcode 6 --quiet
expect_rc 6 "--error-exitcode after the file"
[ -s "$ERR" ] && fail "--quiet: stderr not empty: $(cat "$ERR")"
run_cc replay --error-exitcode 9 --format json "$CLEAN"
expect_rc 0 "clean scenario with --error-exitcode"
expect_not_in "$OUT" '"type":"finding"' "clean scenario printed findings"
expect_in "$ERR" "no findings" "clean scenario summary"

# --output writes the report to a file, stdout stays empty.
run_cc replay --format json --output "$WORK/report.jsonl" "$SCN"
expect_rc 0 "--output"
[ -s "$OUT" ] && fail "--output: stdout not empty"
expect_in "$WORK/report.jsonl" '"api-error"' "--output file"

# --report-dir keeps the per-process JSON Lines report.
run_cc replay --report-dir "$WORK/reports" "$SCN"
expect_rc 0 "--report-dir"
ls "$WORK/reports"/cucheck.*.jsonl >/dev/null 2>&1 || fail "--report-dir: no report file kept"

# The same through a binary recording.
"$CUCHECK" dump --cuevt "$WORK/a.cuevt" "$SCN" || fail "dump --cuevt failed"
run_cc replay --format json --error-exitcode 4 "$WORK/a.cuevt"
expect_rc 4 "replay .cuevt"
expect_in "$OUT" '"api-error"' "replay .cuevt finds the error"

# A recording cut inside its last event: exit 1, offset named, the earlier finding printed.
size="$(stat -c %s "$WORK/a.cuevt")"
head -c $((size - 3)) "$WORK/a.cuevt" >"$WORK/cut.cuevt"
run_cc replay --format json --error-exitcode 4 "$WORK/cut.cuevt"
expect_rc 1 "replay of a cut recording"
expect_in "$ERR" "offset" "cut recording message"
expect_in "$OUT" '"api-error"' "findings before the damage"

# Random bytes.
head -c 4096 /dev/urandom >"$WORK/rnd.bin"
run_cc replay "$WORK/rnd.bin"
expect_rc 1 "replay of random bytes"
expect_in "$ERR" "offset" "replay of random bytes"

# A scenario with an error on line 4: exit 1 with the line, the api_error before it is reported.
run_cc replay --format json "$DATA/bad_key.scn"
expect_rc 1 "replay of a bad scenario"
expect_in "$ERR" "line 4" "bad scenario line"
expect_in "$OUT" '"api-error"' "bad scenario: finding before the error"
finish
