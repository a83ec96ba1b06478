#!/usr/bin/env bash
# The agent's environment knobs in a run (docs/cli.md "Agent knobs"): measuring aids and the
# variables the agent sets for its children, exported in the shell, do not reach the program
# (CUCHECK_MC_PATCH=floor would make memcheck check nothing), and each one said is named on
# stderr; user settings pass on; `--knob VAR=VALUE` sets a knob for one run and `--knob VAR=`
# removes one; a knob that changes what the tool checks is named among the report's notes (JSON
# notes and the per-process report), whichever way it was set, and only for the tool it
# concerns; a bad --knob is a usage error before anything runs. Real agent (skipped, 77, when it
# is not built).
source "$(dirname "$0")/data/common.bash"
AGENT="$BINARY_DIR/src/agent/libcucheck_agent.so"
if [ ! -f "$AGENT" ]; then
  echo "skip: $AGENT is not built"
  exit 77
fi
unset CUCHECK_AGENT
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"
for v in $(env | sed -n 's/^\(CUCHECK_[A-Z_]*\)=.*/\1/p'); do unset "$v"; done

# The program prints the knobs it got (the contract variables cucheck sets are left out).
show_knobs='env | grep "^CUCHECK_" | grep -v "^CUCHECK_\(AGENT\|TOOL\|OPTIONS\|REPORT\|RUN_ID\|RECORD\|SUPPRESSIONS\|PRINT_LIMIT\|QUIET\)=" | sort'

# 1. The attack: stale measuring aids and an agent-set variable exported before a run.
export CUCHECK_MC_PATCH=floor CUCHECK_DRAIN=launch CUCHECK_MC_LOCAL_PROBE=16 \
       CUCHECK_PROFILE_OFF=api CUCHECK_COREDUMP_OWNED=1
run_cc --format json memcheck -- sh -c "$show_knobs"
expect_rc 0 "stale aids"
for v in CUCHECK_MC_PATCH CUCHECK_DRAIN CUCHECK_MC_LOCAL_PROBE CUCHECK_PROFILE_OFF \
         CUCHECK_COREDUMP_OWNED; do
  expect_not_in "$OUT" "$v=" "stale $v reaches the program"
done
for v in CUCHECK_MC_PATCH=floor CUCHECK_DRAIN=launch CUCHECK_MC_LOCAL_PROBE=16 \
         CUCHECK_PROFILE_OFF=api; do
  expect_in "$ERR" "cucheck: $v in the environment is not passed on" "stale ${v%%=*} is said"
done
expect_not_in "$ERR" "CUCHECK_COREDUMP_OWNED" "the agent's own variable is removed silently"
expect_not_in "$OUT" "is in effect" "no knob note when the CLI removed them all"
unset CUCHECK_MC_PATCH CUCHECK_DRAIN CUCHECK_MC_LOCAL_PROBE CUCHECK_PROFILE_OFF \
      CUCHECK_COREDUMP_OWNED

# 2. User settings pass on; one that changes what is checked is named in the notes.
CUCHECK_TRACK=off CUCHECK_SC_UNTOUCHED=0 CUCHECK_NATIVE_FRAMES=1 \
  run_cc --format json memcheck -- sh -c "$show_knobs"
expect_rc 0 "user settings"
for v in CUCHECK_TRACK=off CUCHECK_SC_UNTOUCHED=0 CUCHECK_NATIVE_FRAMES=1; do
  expect_in "$OUT" "$v" "user setting ${v%%=*} reaches the program"
done
expect_in "$OUT" '{"type":"note","tool":"memcheck","text":"CUCHECK_TRACK=off is in effect:' \
  "a user setting that changes what is checked is named"
expect_not_in "$OUT" "CUCHECK_SC_UNTOUCHED=0 is in effect" "streamcheck's knob named under memcheck"
expect_not_in "$OUT" "CUCHECK_NATIVE_FRAMES=1 is in effect" "a knob that checks the same is named"
# a value the agent does not take (said on stderr, the default used) is not in effect
CUCHECK_TRACK=bogus run_cc --format json memcheck -- /bin/true
expect_rc 0 "malformed CUCHECK_TRACK"
expect_not_in "$OUT" "is in effect" "a malformed CUCHECK_TRACK is named"
# streamcheck's own knob is named under streamcheck (with its value only)
CUCHECK_SC_UNTOUCHED=0 CUCHECK_SC_GRAPH_ARGS=1 run_cc --format json streamcheck -- /bin/true
expect_rc 0 "streamcheck knobs"
expect_in "$OUT" '"text":"CUCHECK_SC_UNTOUCHED=0 is in effect: streamcheck takes untouched'   "CUCHECK_SC_UNTOUCHED=0 under streamcheck"
expect_not_in "$OUT" "CUCHECK_SC_GRAPH_ARGS=1 is in effect" "a value that changes nothing is named"

# 3. The explicit route: --knob sets an aid for one run, and the report names it.
run_cc --format json --keep-reports --knob CUCHECK_MC_PATCH=floor memcheck -- \
  sh -c 'printenv CUCHECK_MC_PATCH'
expect_rc 0 "--knob CUCHECK_MC_PATCH=floor"
expect_in "$OUT" "floor" "--knob reaches the program"
expect_in "$OUT" '"text":"CUCHECK_MC_PATCH=floor is in effect: memcheck patches empty functions and checks no device access' \
  "the final report names the knob"
dir="$(sed -n 's/^cucheck: reports kept in //p' "$ERR")"
if [ -z "$dir" ] || ! grep -qF 'CUCHECK_MC_PATCH=floor is in effect' "$dir"/*.jsonl; then
  fail "the per-process report does not name the knob: $(cat "$dir"/*.jsonl 2>&1 | head -c 600)"
fi
# the same knob is named only where it matters: the run tool checks nothing it changes
run_cc --format json --knob CUCHECK_MC_PATCH=floor run -- sh -c 'printenv CUCHECK_MC_PATCH'
expect_rc 0 "--knob under run"
expect_in "$OUT" "floor" "--knob under run reaches the program"
expect_not_in "$OUT" "is in effect" "memcheck's knob named under run"
# --knob after the tool name, the last one for a variable wins, and VAR= removes a user setting
CUCHECK_TRACK=off run_cc --format json memcheck --knob CUCHECK_DRAIN=x --knob CUCHECK_DRAIN=launch \
  --knob CUCHECK_TRACK= -- sh -c "$show_knobs"
expect_rc 0 "--knob after the tool"
expect_in "$OUT" "CUCHECK_DRAIN=launch" "the last --knob wins"
expect_not_in "$OUT" "CUCHECK_DRAIN=x" "an earlier --knob is dropped"
expect_not_in "$OUT" "CUCHECK_TRACK" "--knob VAR= removes the variable"
expect_not_in "$ERR" "not passed on" "a knob given with --knob is not said to be dropped"

# 4. A knob set inside the job (a program exporting it for its children) is named as well.
run_cc --format json memcheck -- sh -c 'CUCHECK_MC_PATCH=floor /bin/true'
expect_rc 0 "knob set by the program"
expect_in "$OUT" "CUCHECK_MC_PATCH=floor is in effect" "a knob set by the program is named"

# 5. Bad --knob values: one line, exit 2, the program does not start.
marker="$WORK/started"
expect_usage_error "--knob without =" --knob CUCHECK_MC_PATCH memcheck -- touch "$marker"
expect_in "$ERR" "--knob needs VAR=VALUE" "--knob without ="
expect_usage_error "--knob unknown" --knob CUCHECK_NO_SUCH=1 memcheck -- touch "$marker"
expect_in "$ERR" "'CUCHECK_NO_SUCH' is not one of the agent's knobs" "--knob unknown"
expect_usage_error "--knob agent variable" --knob CUCHECK_COREDUMP_OWNED=1 run -- touch "$marker"
expect_in "$ERR" "CUCHECK_COREDUMP_OWNED is set by the agent" "--knob agent variable"
expect_usage_error "--knob empty name" --knob =1 run -- touch "$marker"
[ -e "$marker" ] && fail "a bad --knob started the program"

finish
