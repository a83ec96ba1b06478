#!/usr/bin/env bash
# One options path: every tool option value (enums, on/off switches, whole numbers, globs, output
# file patterns) and the suppressions file are checked before anything starts. A bad one gives
# exit status 2 and one line on stderr that names the option, the value and what is accepted,
# and the program is not started (it would create a marker file) — also with --error-exitcode,
# also when the value is '--' or missing. `cucheck replay` refuses the same values the same way,
# and good values are still accepted. With the real agent built, the agent's session refuses a
# bad value with the same words (it reaches the same check through the tool).
source "$(dirname "$0")/data/common.bash"
# A harmless stand-in agent: a value that slipped through would start the program.
CUCHECK_AGENT="$(harmless_agent)" || {
  echo "no C library found to stand in for the agent"
  exit 77
}
export CUCHECK_AGENT
MARK="$WORK/started"
PROG="$WORK/prog.sh"
printf '#!/bin/sh\ntouch "%s"\n' "$MARK" >"$PROG"
chmod +x "$PROG"
CLEAN="$DATA/clean.scn"

# refused DESC WANT_TEXT ARGS...: exit 2, one line naming WANT_TEXT, program not started.
refused() {
  local desc="$1" want="$2"
  shift 2
  rm -f "$MARK"
  expect_usage_error "$desc" "$@"
  expect_in "$ERR" "$want" "$desc"
  [ ! -e "$MARK" ] || fail "$desc: the program was started"
}

# bad_value TOOL OPTION VALUE EXPECTED: `cucheck TOOL --OPTION VALUE -- PROG` is refused with
# "option '--OPTION' does not accept 'VALUE' (expected EXPECTED...".
bad_value() {
  local tool="$1" opt="$2" val="$3" expected="$4"
  refused "$tool --$opt '$val'" \
    "cucheck: $tool: option '--$opt' does not accept '$val' (expected $expected" \
    "$tool" "--$opt" "$val" -- "$PROG"
}

# accepted DESC ARGS...: the program starts and cucheck exits with its status 0.
accepted() {
  local desc="$1"
  shift
  rm -f "$MARK"
  run_cc "$@"
  expect_rc 0 "$desc"
  [ -e "$MARK" ] || fail "$desc: the program was not started; stderr: $(cat "$ERR")"
  expect_not_in "$ERR" "does not accept" "$desc"
}

# --- memcheck ---
bad_value memcheck mode bogus "full or adaptive"
bad_value memcheck mode "" "full or adaptive"
bad_value memcheck mode FULL "full or adaptive"
bad_value memcheck checks-per-kernel 0 "a whole number from 1 to 1000000"
bad_value memcheck checks-per-kernel 1000001 "a whole number from 1 to 1000000"
bad_value memcheck checks-per-kernel -1 "a whole number from 1 to 1000000"
bad_value memcheck checks-per-kernel +3 "a whole number from 1 to 1000000"
bad_value memcheck checks-per-kernel " 3" "a whole number from 1 to 1000000"
bad_value memcheck checks-per-kernel 3x "a whole number from 1 to 1000000"
bad_value memcheck checks-per-kernel 0x10 "a whole number from 1 to 1000000"
bad_value memcheck launch-count -3 "a whole number, 0 or more"
bad_value memcheck launch-count 18446744073709551616 "a whole number, 0 or more"
bad_value memcheck launch-count 1.5 "a whole number, 0 or more"
bad_value memcheck launch-skip "" "a whole number, 0 or more"
bad_value memcheck launch-skip ten "a whole number, 0 or more"
bad_value memcheck on-error maybe "continue or stop"
bad_value memcheck repeats skip "count or check"
bad_value memcheck leak-check yes "full or no"
bad_value memcheck leak-check 1 "full or no"
bad_value memcheck kernel-include "" "a kernel name glob of 1 to 255 characters"
long_glob="$(printf 'k%.0s' $(seq 256))"
refused "memcheck --kernel-exclude of 256 characters" \
  "option '--kernel-exclude' does not accept '${long_glob:0:100}...' (expected a kernel name glob" \
  memcheck --kernel-exclude "$long_glob" -- "$PROG"

# --- streamcheck ---
bad_value streamcheck mode bogus "full, default or api"
bad_value streamcheck sync-copies bogus "documented or full"
bad_value streamcheck sync-copies "" "documented or full"
refused "streamcheck flag with a value" "option '--merge-host-threads' takes no value" \
  streamcheck --merge-host-threads=yes -- "$PROG"

# --- run ---
bad_value run track bogus "on, off, callbacks, or a comma list of resource"
bad_value run track "on,bogus" "on, off, callbacks"
bad_value run track "on," "on, off, callbacks"
bad_value run track "-" "on, off, callbacks"
bad_value run track "" "on, off, callbacks"
bad_value run progress yes "on or off"
bad_value run progress 1 "on or off"
bad_value run coredump maybe "on or off"

# --- profile ---
bad_value profile summary xml "text, csv, json or none"
bad_value profile trace "" "a file name of 1 to"
bad_value profile trace "$WORK/no-such-dir/t.json" \
  "a file in an existing directory; '$WORK/no-such-dir': No such file or directory"
bad_value profile trace "$PROG/t.json" "a file in an existing directory; '$PROG': not a directory"
bad_value profile trace 't.%q{RANK.json' "a file name in which every %q{VAR} is closed"
bad_value profile summary-file "$WORK/no-such-dir/s.txt" "a file in an existing directory"
refused "profile flag with a value" "option '--gzip' takes no value" profile --gzip=1 -- "$PROG"

# --- '--' and missing values are never taken as a value ---
refused "memcheck --mode --" \
  "cucheck: memcheck: option '--mode' needs a value: --mode full|adaptive" \
  memcheck --mode -- "$PROG"
refused "streamcheck --sync-copies --" "option '--sync-copies' needs a value" \
  streamcheck --sync-copies -- "$PROG"
refused "run --track --" "option '--track' needs a value" run --track -- "$PROG"
refused "profile --trace --" "option '--trace' needs a value" profile --trace -- "$PROG"
refused "global option before the tool, value --" "option '--report-dir' needs a value" \
  --report-dir -- run -- "$PROG"
refused "global option after the tool, value --" "option '--print-limit' needs a value" \
  memcheck --print-limit -- "$PROG"
refused "memcheck --launch-count at the end" "option '--launch-count' needs a value" \
  memcheck --launch-count

# --- --error-exitcode does not turn a bad value into a run ---
refused "--error-exitcode with a bad mode" "option '--mode' does not accept 'bogus'" \
  --error-exitcode 9 memcheck --mode bogus -- "$PROG"
refused "--error-exitcode after the tool" "option '--sync-copies' does not accept 'x'" \
  streamcheck --error-exitcode 9 --sync-copies x -- "$PROG"

# --- suppressions files ---
printf 'kind=race\n\ncolour=blue\n' >"$WORK/unknown.supp"
refused "suppressions: unknown key" "$WORK/unknown.supp:3: unknown key 'colour'" \
  --suppressions "$WORK/unknown.supp" memcheck -- "$PROG"
refused "suppressions: unknown key, --error-exitcode" "$WORK/unknown.supp:3: unknown key" \
  --error-exitcode 9 run --suppressions "$WORK/unknown.supp" -- "$PROG"
printf '# ok\nkind=race\njust words\n' >"$WORK/malformed.supp"
refused "suppressions: malformed line" "$WORK/malformed.supp:3: expected key=value" \
  --suppressions "$WORK/malformed.supp" streamcheck -- "$PROG"
printf 'kind=\n' >"$WORK/empty.supp"
refused "suppressions: empty pattern" "$WORK/empty.supp:1: key 'kind' has no pattern" \
  --suppressions "$WORK/empty.supp" run -- "$PROG"
printf '=race\n' >"$WORK/nokey.supp"
refused "suppressions: no key" "$WORK/nokey.supp:1: no key before '='" \
  --suppressions "$WORK/nokey.supp" run -- "$PROG"
printf 'kind=race\nkind=leak\n' >"$WORK/twice.supp"
refused "suppressions: key twice" "$WORK/twice.supp:2: key 'kind' given twice" \
  --suppressions "$WORK/twice.supp" run -- "$PROG"
refused "suppressions: missing file" "suppressions file '$WORK/none.supp': No such file" \
  --suppressions "$WORK/none.supp" run -- "$PROG"
refused "suppressions: a directory" "not a regular file" --suppressions "$WORK" run -- "$PROG"

# --- good values are accepted and the program runs ---
cat >"$WORK/good.supp" <<'EOF'
# known
tool=memcheck
kind=invalid-global-read
kernel=*gemm*

kind=race
frame=*loader.py:*
EOF
accepted "memcheck, every option" --quiet --suppressions "$WORK/good.supp" memcheck --mode full \
  --checks-per-kernel 1000000 --repeats check --on-error stop --leak-check full --kernel-include 'k*' \
  --kernel-exclude='x\*' --launch-skip 0 --launch-count 18446744073709551615 -- "$PROG"
accepted "memcheck, other choices" --quiet memcheck --mode adaptive --checks-per-kernel=1 \
  --repeats=count --on-error continue --leak-check no --launch-count 007 -- "$PROG"
for mode in full default api; do
  accepted "streamcheck --mode $mode" --quiet streamcheck --mode "$mode" -- "$PROG"
done
accepted "streamcheck, other options" --quiet streamcheck --sync-copies full \
  --merge-host-threads --sync-copies=documented -- "$PROG"
for track in on off all none callbacks "on,-stacks" "launch,stacks" "on,-api,apiwork"; do
  accepted "run --track $track" --quiet run --track "$track" -- "$PROG"
done
accepted "run --progress/--coredump" --quiet run --progress on --coredump off -- "$PROG"
accepted "run --progress off --coredump on" --quiet run --progress=off --coredump=on -- "$PROG"
for fmt in text csv json none; do
  accepted "profile --summary $fmt" --quiet profile --summary "$fmt" -- "$PROG"
done
accepted "profile output files" --quiet profile --trace "$WORK/t.%p.json" --gzip \
  --summary-file "$WORK/s.%q{RANK}.txt" -- "$PROG"
accepted "profile, pattern in the directory" --quiet profile --trace "$WORK/%q{RANK}/t.json" \
  -- "$PROG"

# --- replay checks the same values the same way ---
refused "replay: memcheck --mode bogus" \
  "cucheck: replay: option '--mode' does not accept 'bogus' (expected full or adaptive)" \
  replay --tool memcheck --mode bogus "$CLEAN"
refused "replay: option after the file" "option '--launch-count' does not accept '-3'" \
  replay --tool memcheck "$CLEAN" --launch-count -3
refused "replay: streamcheck --sync-copies" "option '--sync-copies' does not accept 'bogus'" \
  replay --tool streamcheck --sync-copies bogus "$CLEAN"
refused "replay: run --progress" "option '--progress' does not accept 'yes'" \
  replay --progress yes "$CLEAN"
refused "replay: profile --summary" "option '--summary' does not accept 'xml'" \
  replay --tool profile --summary xml "$CLEAN"
refused "replay: value --" "option '--mode' needs a value" replay --tool memcheck --mode -- "$CLEAN"
refused "replay: --tool --" "option '--tool' needs a value" replay --tool -- "$CLEAN"
refused "replay: bad suppressions" "$WORK/unknown.supp:3: unknown key 'colour'" \
  replay --suppressions "$WORK/unknown.supp" "$CLEAN"
refused "replay: --error-exitcode and a bad value" "option '--mode' does not accept 'x'" \
  --error-exitcode 9 replay --tool streamcheck --mode x "$CLEAN"
run_cc --quiet replay --tool memcheck --mode full --leak-check full --suppressions \
  "$WORK/good.supp" "$CLEAN"
expect_rc 0 "replay with good values"
run_cc --quiet replay --tool streamcheck --mode api --merge-host-threads "$CLEAN"
expect_rc 0 "replay streamcheck with good values"

# --- the agent's session refuses a bad value with the same words ---
AGENT="$BINARY_DIR/src/agent/libcucheck_agent.so"
if [ -f "$AGENT" ]; then
  CUCHECK_TOOL=memcheck CUCHECK_OPTIONS="$(printf 'mode=bogus\n')" CUCHECK_QUIET=1 \
    LD_PRELOAD="$AGENT" /bin/true 2>"$ERR"
  expect_in "$ERR" "option '--mode' does not accept 'bogus' (expected full or adaptive)" \
    "agent session: bad memcheck mode"
  CUCHECK_TOOL=streamcheck CUCHECK_OPTIONS="$(printf 'sync-copies=bogus\n')" CUCHECK_QUIET=1 \
    LD_PRELOAD="$AGENT" /bin/true 2>"$ERR"
  expect_in "$ERR" "option '--sync-copies' does not accept 'bogus' (expected documented or full)" \
    "agent session: bad streamcheck sync-copies"
else
  echo "note: $AGENT not built; the agent's session check is not run"
fi
finish
