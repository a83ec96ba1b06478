#!/usr/bin/env bash
# cucheck --help / --version / help TOPIC / TOOL --help: exit 0, text on stdout, nothing on
# stderr; tool help lists the tool's options; the version matches the project's.
source "$(dirname "$0")/data/common.bash"

run_cc --help
expect_rc 0 "--help"
expect_in "$OUT" "usage: cucheck" "--help"
for word in replay dump occupancy inspect doctor --report-dir --report-file --format --output \
            --print-limit --suppressions --error-exitcode --record --quiet --verbose \
            --keep-reports; do
  expect_in "$OUT" "$word" "--help lists $word"
done
[ -s "$ERR" ] && fail "--help wrote to stderr: $(cat "$ERR")"
run_cc -h
expect_rc 0 "-h"
expect_in "$OUT" "usage: cucheck" "-h"

want="$(sed -n 's/^project(cucheck VERSION \([0-9.]*\).*/\1/p' "$SOURCE_DIR/CMakeLists.txt")"
run_cc --version
expect_rc 0 "--version"
if [ "$(cat "$OUT")" != "cucheck $want" ]; then
  fail "--version printed '$(cat "$OUT")', expected 'cucheck $want'"
fi

# Every registered tool: listed in the overview, has its own help naming each of its options.
tools="$("$CUCHECK" --help | sed -n '/^Tools/,/^$/p' | awk '/^  [^ ]/ { print $1 }')"
[ -n "$tools" ] || fail "--help lists no tools"
for t in $tools; do
  run_cc "$t" --help
  expect_rc 0 "$t --help"
  expect_in "$OUT" "usage: cucheck [global options] $t" "$t --help"
  expect_in "$OUT" "$t options:" "$t --help"
  expect_in "$OUT" "--error-exitcode" "$t --help shows global options"
  cp "$OUT" "$WORK/tool_help"
  run_cc help "$t"
  expect_rc 0 "help $t"
  cmp -s "$OUT" "$WORK/tool_help" || fail "'help $t' differs from '$t --help'"
  run_cc --quiet "$t" -h
  expect_rc 0 "$t -h after a global option"
done
# The run tool exists (the default of replay).
echo "$tools" | grep -qx run || fail "tool 'run' is not registered"

for cmd in replay dump; do
  run_cc "$cmd" --help
  expect_rc 0 "$cmd --help"
  expect_in "$OUT" "usage: cucheck $cmd" "$cmd --help"
  run_cc help "$cmd"
  expect_rc 0 "help $cmd"
  expect_in "$OUT" "usage: cucheck $cmd" "help $cmd"
done
run_cc help
expect_rc 0 "help"
expect_in "$OUT" "usage: cucheck" "help"

# Commands built in other files: their help works, or they say they are not built (exit 2).
for cmd in occupancy inspect doctor; do
  run_cc "$cmd" --help
  if [ "$RC" -eq 0 ]; then
    [ -s "$OUT" ] || fail "$cmd --help printed nothing"
  elif [ "$RC" -eq 2 ]; then
    expect_in "$ERR" "cucheck: $cmd is not built in this version" "$cmd --help"
  else
    fail "$cmd --help: exit status $RC"
  fi
done
finish
