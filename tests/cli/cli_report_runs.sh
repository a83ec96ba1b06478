#!/usr/bin/env bash
# Runs never mix: every run's report sections carry its run id ($CUCHECK_RUN_ID, in the header's
# "run") and the collector counts only this run's sections. Without a GPU or the real agent: a
# harmless library stands in for the agent and the program writes its own report lines, as the
# agent does (a header, then findings). Checks: a fixed --report-file used by three runs, and a
# report name that repeats because the pid repeats (containers), report 1 occurrence each time,
# not 1, 2, 3; a section of an earlier run in the same file is ignored while the sections of
# this run (a process that exec'd appends one more) all count; a garbage first line, a damaged
# record in the middle or a damaged section of another run hide none of this run's findings, and
# --error-exitcode still fires; every default report name holds the run id.
source "$(dirname "$0")/data/common.bash"
use_harmless_agent

# $REPORT KIND [PID]: a process that writes a header and one error finding to the report file
# named by $CUCHECK_REPORT, with %p = PID (its own pid when not given: a fixed PID stands for a
# container, where every run's first process has the same pid).
REPORT="$WORK/report.sh"
cat >"$REPORT" <<'SH'
f="$(printf '%s' "$CUCHECK_REPORT" | sed "s/%r//; s/%p/${2:-$$}/")"
printf '{"type":"header","format":"cucheck-report","format_version":1,"tool":"run","run":"%s","pid":%s,"version":"0"}\n' "${CUCHECK_RUN_ID:-}" "${2:-$$}" >>"$f"
printf '{"type":"finding","id":1,"tool":"run","kind":"%s","severity":"error","message":"seen %s","count":1}\n' "$1" "$1" >>"$f"
SH

# count_of KIND: the count of the one finding of kind KIND in $OUT (JSON Lines), or "none".
count_of() {
  python3 - "$OUT" "$1" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
got = [r.get("count", 1) for r in recs if r.get("type") == "finding" and r.get("kind") == sys.argv[2]]
print(got[0] if len(got) == 1 else ("none" if not got else "several"))
PY
}

# 1. A fixed --report-file, three runs: one occurrence each time.
for i in 1 2 3; do
  run_cc --format json --report-file "$WORK/fixed/report.jsonl" run -- sh "$REPORT" bad
  expect_rc 0 "fixed --report-file, run $i"
  got="$(count_of bad)"
  [ "$got" = 1 ] || fail "fixed --report-file, run $i: count $got, expected 1 (runs mixed)"
  expect_in "$ERR" "in 1 process report" "fixed --report-file, run $i: one report"
done
[ "$(grep -c '"type":"header"' "$WORK/fixed/report.jsonl")" -eq 3 ] ||
  fail "fixed --report-file: the file should hold the three runs' sections"

# 2. The same pid in every run (a container's first process) in a reused --report-dir, with a
#    pattern of %p only: one occurrence each time.
for i in 1 2 3; do
  run_cc --format json --report-dir "$WORK/rd" --report-file 'r.%p.jsonl' run -- sh "$REPORT" bad 1
  got="$(count_of bad)"
  [ "$got" = 1 ] || fail "repeated pid, run $i: count $got, expected 1 (runs mixed)"
done

# 3. The default name holds the run id; the run id is in every header.
run_cc --keep-reports run -- sh -c "sh '$REPORT' one; sh '$REPORT' two"
kept="$(sed -n 's/^cucheck: reports kept in //p' "$ERR")"
files="$(ls "$kept" 2>/dev/null)"
[ "$(echo "$files" | grep -c .)" -eq 2 ] || fail "default names: expected 2 files in $kept: $files"
id="$(sed -n 's/.*"run":"\([^"]*\)".*/\1/p' "$kept"/* | sort -u)"
[ "$(echo "$id" | grep -c .)" -eq 1 ] && [ -n "$id" ] || fail "default names: run ids '$id'"
for f in $files; do
  case "$f" in cucheck."$id".*.jsonl) ;; *) fail "default name '$f' does not hold the run id $id" ;; esac
done

# 4. A section of another run, then this run's sections (an exec'd process appends its own):
#    only this run's count, and both of its sections.
other='{"type":"header","format":"cucheck-report","format_version":1,"tool":"run","run":"0123456789abcdef","pid":7,"version":"0"}'
old='{"type":"finding","id":1,"tool":"run","kind":"old","severity":"error","message":"old run","count":5}'
mkdir -p "$WORK/mixed"
printf '%s\n%s\n' "$other" "$old" >"$WORK/mixed/r.jsonl"
run_cc --format json --report-file "$WORK/mixed/r.jsonl" run -- sh -c "sh '$REPORT' bad 9; sh '$REPORT' bad 9"
[ "$(count_of old)" = none ] || fail "another run's section was collected: $(cat "$OUT")"
[ "$(count_of bad)" = 2 ] || fail "this run's two sections: count $(count_of bad), expected 2"

# 5. A garbage first line hides nothing, and --error-exitcode still fires.
mkdir -p "$WORK/garbage"
printf 'this is not JSON\n' >"$WORK/garbage/r.jsonl"
run_cc --error-exitcode 42 --report-file "$WORK/garbage/r.jsonl" run -- sh "$REPORT" bad
expect_rc 42 "garbage first line: --error-exitcode"
expect_in "$OUT" "seen bad" "garbage first line: the finding after it"
expect_in "$ERR" "r.jsonl:1:" "garbage first line: the damaged line is named"
expect_in "$ERR" "1 error" "garbage first line: summary"

# 6. A damaged record between two findings of this run hides neither, and a damaged line inside
#    another run's section is not this run's business.
mkdir -p "$WORK/damaged"
printf '%s\n{"type":"finding","tool":"run"\n' "$other" >"$WORK/damaged/r.jsonl"
run_cc --format json --error-exitcode 42 --report-file "$WORK/damaged/r.jsonl" run -- \
  sh -c "sh '$REPORT' first 5; echo '{\"type\":\"finding\",\"id\":2,\"tool\":' >>'$WORK/damaged/r.jsonl'; \
         echo '{\"type\":\"update\",\"id\":77,\"count\":3}' >>'$WORK/damaged/r.jsonl'; sh '$REPORT' second 5"
expect_rc 42 "damaged record: --error-exitcode"
[ "$(count_of first)" = 1 ] || fail "damaged record: the finding before it is lost"
[ "$(count_of second)" = 1 ] || fail "damaged record: the finding after it is lost"
expect_in "$ERR" "r.jsonl:5:" "damaged record: the first damaged line of this run is named"
expect_not_in "$ERR" "r.jsonl:2:" "damaged record: another run's damaged line is not reported"
expect_in "$ERR" "1 more damaged line" "damaged record: the second damaged line is counted"

finish
