#!/usr/bin/env bash
# `cucheck run`'s second run after an asynchronous error with several candidates, with a fake
# program in place of a CUDA one: a shell script that writes the report the agent would write
# (the findings of tests/scenarios/run/rerun_*.scn, replayed to JSON Lines), the first-run one
# without CUCHECK_PROGRESS_LAUNCHES and, in the second run, the one FAKE_SECOND names. Checked:
# the finding becomes exact when the second run names a candidate (plain launches and a graph
# node), the candidates stay with the reason when it does not (marks left several, another
# launch, another error, no error, time limit, the error in a child process), --rerun off and
# --progress on run the program once, the second run's output is discarded, its stdin is empty,
# the launch list names the second run's own pid, and cucheck's exit status and output are the
# first run's. The agent is replaced by the C library (harmless_agent).
source "$(dirname "$0")/data/common.bash"
SCN="$SOURCE_DIR/tests/scenarios/run"
if ! lib="$(harmless_agent)"; then
  echo "skip: no C library to stand in for the agent"
  exit 77
fi
export CUCHECK_AGENT="$lib"
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"

fixture() { # fixture NAME SCENARIO: the scenario's findings as report lines
  "$CUCHECK" replay --tool run --format json "$2" 2>/dev/null | grep '"type":"finding"' \
    >"$WORK/$1.jsonl" || fail "fixture $1: no finding in $2"
}
fixture first "$SCN/rerun_first.scn"
fixture exact "$SCN/rerun_second_exact.scn"
fixture left "$SCN/rerun_second_left.scn"
fixture shifted "$SCN/rerun_second_shifted.scn"
fixture other "$SCN/rerun_second_other_error.scn"
fixture graph_first "$SCN/rerun_graph_first.scn"
fixture graph_exact "$SCN/async_progress_graph.scn"
: >"$WORK/none.jsonl"

# The fake program: FAKE_FIRST and FAKE_SECOND name the fixtures of the two runs; "sleep" makes
# the second run outlive its time limit, "child" has a child process report the first error.
cat >"$WORK/fake.sh" <<'EOF'
#!/bin/sh
write_report() { # write_report PID FIXTURE
  report="$(printf '%s' "$CUCHECK_REPORT" | sed "s/%r//; s/%p/$1/")" # %r: no rank here
  { printf '{"type":"header","format":"cucheck-report","format_version":1,"tool":"run","run":"%s","pid":%s}\n' \
      "$CUCHECK_RUN_ID" "$1"
    cat "$FAKE_DIR/$2.jsonl"; } >>"$report"
}
if [ -z "${CUCHECK_PROGRESS_LAUNCHES:-}" ]; then
  echo "first run output"
  echo "first run error" >&2
  case "$FAKE_FIRST" in
    child) sh -c 'exec "$0" "$1"' "$FAKE_DIR/child.sh" first ;;
    *) write_report $$ "$FAKE_FIRST" ;;
  esac
  exit 3
fi
printf '%s %s\n' "$$" "$CUCHECK_PROGRESS_LAUNCHES" >"$FAKE_DIR/list"
cat >"$FAKE_DIR/stdin" # must be empty (/dev/null), not the terminal's
echo "second run output"
echo "second run error" >&2
case "$FAKE_SECOND" in
  sleep) touch "$FAKE_DIR/slept"; sleep "$FAKE_SLEEP"; touch "$FAKE_DIR/woke" ;;
  *) write_report $$ "$FAKE_SECOND" ;;
esac
exit 5
EOF
cat >"$WORK/child.sh" <<'EOF'
#!/bin/sh
report="$(printf '%s' "$CUCHECK_REPORT" | sed "s/%r//; s/%p/$$/")"
{ printf '{"type":"header","format":"cucheck-report","format_version":1,"tool":"run","run":"%s","pid":%s}\n' \
    "$CUCHECK_RUN_ID" "$$"
  cat "$FAKE_DIR/$1.jsonl"; } >>"$report"
EOF
chmod +x "$WORK/fake.sh" "$WORK/child.sh"
export FAKE_DIR="$WORK"
# The second run's sleep, unique to this test run: another run of this test on the machine (a
# parallel ctest, a CI clone) must not be taken for a child this one left running.
export FAKE_SLEEP="27.$$"

# run_fake FIRST SECOND ARGS...: cucheck ARGS -- fake.sh, the JSON report in $WORK/report.jsonl
run_fake() {
  local first="$1" second="$2"
  shift 2
  rm -f "$WORK/list" "$WORK/stdin" "$WORK/report.jsonl"
  FAKE_FIRST="$first" FAKE_SECOND="$second" run_cc --format json --output "$WORK/report.jsonl" \
    "$@" -- "$WORK/fake.sh"
}
report_has() { expect_in "$WORK/report.jsonl" "$1" "$2"; }
report_lacks() { expect_not_in "$WORK/report.jsonl" "$1" "$2"; }

# 1. The second run names launch #3: the finding is exact, everything else is the first run's.
run_fake first exact run
expect_rc 3 "exact: the first run's exit status"
report_has '"role":"faulting launch","message":"launch #3 of k2(float*, int)' "exact: faulting launch"
report_has 'named by a second run of the program with progress marks on the candidate launches #1, #2, #3, #4' \
  "exact: says how it was named"
report_has 'the program ran twice' "exact: says the program ran twice"
report_lacks '"role":"candidate launch"' "exact: no candidates left"
report_has '"kernel_mangled":"_Z2k2Pfi","launch_id":3' "exact: the finding's device location"
expect_in "$OUT" "first run output" "exact: the first run's output passes through"
expect_in "$ERR" "first run error" "exact: the first run's stderr passes through"
expect_not_in "$OUT" "second run output" "exact: the second run's output is discarded"
expect_not_in "$ERR" "second run error" "exact: the second run's stderr is discarded"
expect_in "$ERR" "running the program a second time" "exact: the second run is announced"
[ -f "$WORK/list" ] || fail "exact: the second run did not run"
if [ -f "$WORK/list" ]; then
  read -r pid list <"$WORK/list"
  case "$list" in
    "$pid"/4:*,3:*,2:*,1:*) ;;
    *) fail "exact: launch list '$list' does not name pid $pid and launches 4,3,2,1" ;;
  esac
  echo "$list" | grep -Eq '^[0-9]+/([0-9]+:[0-9a-f]{16},){3}[0-9]+:[0-9a-f]{16}$' ||
    fail "exact: launch list '$list' is not PID/ID:HASH,..."
fi
[ -s "$WORK/stdin" ] && fail "exact: the second run's stdin was not empty"

# 1b. Quiet: no announcement; text output names the faulting launch.
FAKE_FIRST=first FAKE_SECOND=exact run_cc --quiet run -- "$WORK/fake.sh" </dev/null
expect_rc 3 "quiet: exit status"
expect_not_in "$ERR" "running the program a second time" "quiet: no announcement"
expect_in "$OUT" "Faulting launch: launch #3 of k2(float*, int)" "quiet: text names the launch"

# 2. A graph launch: the second run names its node #7.
run_fake graph_first graph_exact run
report_has '"role":"faulting launch","message":"launch #7 of node_b' "graph: the node is the faulting launch"
report_has '"role":"graph launch","message":"graph launch #5' "graph: its graph launch"
report_has 'progress marks on its kernel nodes #6, #7, #8' "graph: the nodes marked"
report_lacks '"role":"candidate node"' "graph: no candidate node left"

# 3. The candidates stay, with the reason.
run_fake first left run
report_has "a second run with progress marks on the candidates did not name one: the second run's progress marks left 2 launches" \
  "left: reason"
report_has '"role":"candidate launch"' "left: candidates kept"
report_lacks '"role":"faulting launch"' "left: nothing named"
run_fake first shifted run
report_has 'the second run named launch #4 of k2(float*, int), which is not one of the candidates' "shifted: reason"
report_has '"role":"candidate launch"' "shifted: candidates kept"
run_fake first other run
report_has 'the second run failed differently (cudaErrorLaunchFailure (719) surfaced in cudaDeviceSynchronize)' \
  "other error: reason"
run_fake first none run
report_has 'the second run ended without an asynchronous error' "no error: reason"
expect_rc 3 "no error: the first run's exit status"

# 4. --rerun off, --progress on, CUCHECK_PROGRESS=on: the program runs once, the finding as is.
for opts in "run --rerun off" "run --progress on" "--knob CUCHECK_PROGRESS=on run"; do
  # shellcheck disable=SC2086
  run_fake first exact $opts
  [ -f "$WORK/list" ] && fail "$opts: the program ran a second time"
  report_has '"role":"candidate launch"' "$opts: candidates"
  report_lacks 'second run' "$opts: no word of a second run"
  expect_rc 3 "$opts: exit status"
done

# 5. The error in a child process: not run again, and said so.
run_fake child exact run
[ -f "$WORK/list" ] && fail "child: the program ran a second time"
report_has 'not run again to name the launch: the error was in a process the program started' "child: reason"

# 6. Other tools never run the program twice.
run_fake first exact streamcheck --mode api
[ -f "$WORK/list" ] && fail "streamcheck: the program ran a second time"

# 7. The time limit (twice the first run's time and 10 s): the second run and what it started
#    are killed, the candidates stay.
rm -f "$WORK/slept" "$WORK/woke"
start=$(date +%s)
run_fake first sleep run
took=$(( $(date +%s) - start ))
[ -f "$WORK/slept" ] || fail "sleep: the second run did not start"
report_has 'the second run did not end within 10 s' "sleep: reason"
[ "$took" -lt 25 ] || fail "sleep: cucheck took ${took}s, the limit is about 10s"
sleep 1
pgrep -f "sleep $FAKE_SLEEP" >/dev/null && fail "sleep: the second run's child was left running"

# 8. A bad value stops before anything runs.
expect_usage_error "run --rerun yes" run --rerun yes -- "$WORK/fake.sh"

left="$(find "$TMPDIR" -mindepth 1 | head -5)"
[ -z "$left" ] || fail "report directories left behind: $left"
finish
