#!/usr/bin/env bash
# Command-line mistakes: each gives exit status 2 and exactly one line on stderr, and runs
# nothing. Also: a missing agent library is a clear one-line error, exit 2.
source "$(dirname "$0")/data/common.bash"
# With a harmless stand-in agent, a mistake that slipped through would run /bin/true and exit 0.
CUCHECK_AGENT="$(harmless_agent)" || { echo "no C library found to stand in for the agent"; exit 77; }
export CUCHECK_AGENT

expect_usage_error "no arguments"
expect_usage_error "unknown tool" no-such-tool -- /bin/true
expect_in "$ERR" "unknown tool or command 'no-such-tool' (see 'cucheck --help')" "unknown tool"
expect_usage_error "unknown global option" --no-such-option run -- /bin/true
expect_usage_error "unknown tool option" run --no-such-option -- /bin/true
expect_in "$ERR" "cucheck: run: unknown option '--no-such-option' (see 'cucheck run --help')" \
  "unknown tool option"
expect_usage_error "unknown tool option with value" run --no-such-option=3 -- /bin/true
expect_usage_error "unknown short option" run -z -- /bin/true
expect_usage_error "missing program" run
expect_usage_error "missing program after --" run --
expect_usage_error "missing program after options" --quiet run --verbose
expect_usage_error "missing value (global, before tool)" --report-dir
expect_usage_error "missing value (global, after tool)" run --print-limit
expect_usage_error "missing value (output)" run --output
expect_usage_error "bad format" --format xml run -- /bin/true
expect_usage_error "bad print limit" --print-limit ten run -- /bin/true
expect_usage_error "bad error exit code" run --error-exitcode 256 -- /bin/true
expect_usage_error "flag given a value" run --quiet=yes -- /bin/true
expect_usage_error "missing suppressions file" --suppressions "$WORK/none.supp" run -- /bin/true
expect_usage_error "unterminated %q{" --report-file 'r.%q{RANK.jsonl' run -- /bin/true
expect_usage_error "replay without file" replay
expect_usage_error "replay with unknown tool" replay --tool no-such-tool "$DATA/clean.scn"
expect_usage_error "replay with unknown option" replay --no-such-option "$DATA/clean.scn"
expect_usage_error "replay with two files" replay "$DATA/clean.scn" "$DATA/clean.scn"
expect_usage_error "dump without file" dump
expect_usage_error "dump with unknown option" dump --no-such-option "$DATA/clean.scn"
expect_usage_error "help for unknown topic" help no-such-topic

# Tool options are checked against the tool's own table: every option of `run --help` with a
# value needs one.
"$CUCHECK" run --help | sed -n '/^run options:/,/^$/p' | awk '$1 ~ /^--/ && NF > 1 && $2 ~ /^[A-Z]/ { print $1 }' \
  >"$WORK/valued"
while read -r opt; do
  expect_usage_error "run $opt without value" run "$opt"
done <"$WORK/valued"

# The agent cannot be found.
CUCHECK_AGENT="$WORK/no-agent.so" "$CUCHECK" run -- /bin/true >"$OUT" 2>"$ERR"
RC=$?
expect_rc 2 "missing agent"
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "missing agent: not one line: $(cat "$ERR")"
expect_in "$ERR" "no-agent.so" "missing agent names the path"
finish
