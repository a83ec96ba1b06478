#!/usr/bin/env bash
# Collecting per-process reports without a GPU or the real agent: a harmless library stands in
# for the agent and the program itself writes JSON Lines reports where $CUCHECK_REPORT says
# (%p = its pid; the header names the run of $CUCHECK_RUN_ID, as the agent's does). Checks:
# reports of every process are merged (identical findings fold with summed counts),
# --error-exitcode, exit status and signals, SIGTERM forwarding, report directories (temporary
# and removed, kept, reused without mixing runs), --report-file patterns.
source "$(dirname "$0")/data/common.bash"
use_harmless_agent

# $REPORT KIND SEVERITY: a process that writes one finding to its own report file, named by
# $CUCHECK_REPORT with %p = its pid and %q{RANK} = $RANK.
REPORT="$WORK/report.sh"
cat >"$REPORT" <<'SH'
f="$(printf '%s' "$CUCHECK_REPORT" |
    sed "s/%r/${RANK:+rank$RANK.}/; s/%p/$$/; s/%q{RANK}/${RANK:-}/")"
printf '{"type":"header","format":"cucheck-report","format_version":1,"tool":"run","run":"%s","pid":1,"version":"0"}\n' "$CUCHECK_RUN_ID" >>"$f"
printf '{"type":"finding","id":1,"tool":"run","kind":"%s","severity":"%s","message":"seen %s","count":1}\n' "$1" "$2" "$1" >>"$f"
SH
report() { printf 'sh %s %s %s; ' "$REPORT" "$1" "$2"; }

run_cc run -- sh -c "$(report leak warning) exit 0"
expect_rc 0 "one warning"
expect_in "$OUT" "seen leak" "warning printed"
expect_in "$ERR" "0 errors, 1 warning" "summary"

# Three processes report the same error: one finding, count 3; plus one other error.
prog="$(report bad error) $(report bad error) $(report bad error) $(report other error) exit 5"
run_cc --format json run -- sh -c "$prog"
expect_rc 5 "program status with errors"
python3 - "$OUT" <<'PY' || fail "merged findings wrong: $(cat "$OUT")"
import json, sys
f = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
f = [r for r in f if r.get("type", "finding") == "finding"]
got = sorted((r["kind"], r.get("count", 1)) for r in f)
assert got == [("bad", 3), ("other", 1)], got
PY
expect_in "$ERR" "4 process reports" "summary counts the reports"
run_cc --error-exitcode 42 run -- sh -c "$prog"
expect_rc 42 "--error-exitcode with errors"
run_cc run --error-exitcode 42 -- sh -c "$(report leak warning) exit 0"
expect_rc 0 "--error-exitcode with warnings only"

# --print-limit for text.
run_cc --print-limit 1 run -- sh -c "$(report one error) $(report two error)"
expect_in "$OUT" "1 more finding not shown" "--print-limit"

# A signal: status 128+N, message, findings written before it still reported.
run_cc run -- sh -c "$(report before error) kill -ABRT \$\$"
expect_rc 134 "killed by SIGABRT"
expect_in "$ERR" "program killed by signal 6" "signal message"
expect_in "$OUT" "seen before" "findings before the crash"

# SIGTERM sent to cucheck reaches the program, which exits its own way.
"$CUCHECK" --quiet run -- sh -c 'trap "exit 42" TERM; while :; do sleep 0.05; done' >"$OUT" 2>"$ERR" &
pid=$!
sleep 0.5
kill -TERM "$pid"
wait "$pid"
RC=$?
expect_rc 42 "SIGTERM forwarded"

# The temporary report directory is gone; --keep-reports keeps it and says where.
left="$(find "$TMPDIR" -mindepth 1 | head -5)"
[ -z "$left" ] || fail "temporary report files left behind: $left"
run_cc --keep-reports run -- sh -c "$(report kept error)"
kept="$(sed -n 's/^cucheck: reports kept in //p' "$ERR")"
[ -n "$kept" ] && ls "$kept"/cucheck.*.jsonl >/dev/null 2>&1 || fail "--keep-reports: $(cat "$ERR")"

# A reused --report-dir: files of an earlier run are not collected again.
run_cc --report-dir "$WORK/rd" run -- sh -c "$(report first error)"
run_cc --report-dir "$WORK/rd" --format json run -- sh -c "$(report second error)"
expect_in "$OUT" '"second"' "reused report dir: new finding"
expect_not_in "$OUT" '"first"' "reused report dir: old finding"
[ "$(ls "$WORK/rd" | wc -l)" -eq 2 ] || fail "reused report dir: expected both files kept"

# --report-file with %q{VAR}: one file per rank, all collected.
prog="RANK=0 $(report r error) RANK=1 $(report r error)"
run_cc --report-file "$WORK/ranks/rank%q{RANK}.%p.jsonl" --format json run -- sh -c "$prog"
expect_rc 0 "--report-file"
[ "$(ls "$WORK/ranks" | grep -c '^rank[01]\.')" -eq 2 ] || fail "--report-file: files $(ls "$WORK/ranks")"
expect_in "$OUT" '"count":2' "--report-file: both ranks merged"
finish
