#!/usr/bin/env bash
# The pytest plugin (python/cucheck/pytest_plugin.py) without a GPU: its unit tests
# (tests/pytest_plugin/test_plugin_units.py), then `pytest --cucheck memcheck` over
# tests/pytest_plugin/planted, whose tests make the finding the agent would make (a memcheck
# scenario replayed to JSON Lines, appended to the process's report naming the running test, as
# the agent's reporter does: unit test test_report_test_field). Checked: the session runs again
# under the real cucheck CLI (found by --cucheck-bin, CUCHECK_EXE, PATH; none is a usage
# error), the overrunning test fails with the finding in its report, its clean twin passes, a
# finding in a fixture is an error at setup, a warning fails only with --cucheck-fail-on
# warning, an expected failure stays one, a finding at collection is listed as outside any
# test, cucheck's own report (text, JSON, SARIF) names the test, the tool's options and bad
# ones reach cucheck, the exit status is pytest's, `cucheck memcheck -- pytest` works without
# --cucheck, and without cucheck the plugin changes nothing. Skipped where pytest is missing.
# The agent is replaced by the C library (harmless_agent).
source "$(dirname "$0")/data/common.bash"
PY="${CUCHECK_TEST_PYTHON:-python3}"
if ! "$PY" -c 'import pytest' 2>/dev/null; then
  echo "skip: pytest is not installed for $PY (set CUCHECK_TEST_PYTHON to a python that has it)"
  exit 77
fi
if ! lib="$(harmless_agent)"; then
  echo "skip: no C library to stand in for the agent"
  exit 77
fi
export CUCHECK_AGENT="$lib"
CUCHECK="$(cd "$(dirname "$CUCHECK")" && pwd)/$(basename "$CUCHECK")" # the tests run elsewhere
export PYTHONPATH="$SOURCE_DIR/python${PYTHONPATH:+:$PYTHONPATH}"
unset CUCHECK_EXE CUCHECK_REPORT CUCHECK_RUN_ID CUCHECK_CURRENT_TEST CUCHECK_EVENT_THREAD
export FAKE_DIR="$WORK"
export FAKE_FINDING="$WORK/finding.jsonl"
"$CUCHECK" replay --tool memcheck --format json "$SOURCE_DIR/tests/scenarios/memcheck/oob_write_after_end.scn" \
  2>/dev/null | grep '"type":"finding"' >"$FAKE_FINDING" || fail "fixture: no finding in the scenario"
cp -r "$SOURCE_DIR/tests/pytest_plugin/planted" "$WORK/planted"
cd "$WORK" || exit 1

# The checkout's plugin, also where an installed cucheck package brings its own through the
# pytest11 entry point "cucheck" (which -p no:cucheck keeps out: one module under two names is an
# error of pytest's plugin manager).
PLUGIN=(-p no:cucheck -p cucheck.pytest_plugin)

# run_pytest ARGS...: python -m pytest on the planted tests with the plugin; RC, OUT, ERR.
run_pytest() {
  "$PY" -m pytest "${PLUGIN[@]}" -p no:cacheprovider --rootdir "$WORK/planted" -rA \
    "$@" >"$OUT" 2>"$ERR"
  RC=$?
}

# 1. the plugin's logic
"$PY" -m pytest -q -p no:cacheprovider --rootdir "$WORK" \
  "$SOURCE_DIR/tests/pytest_plugin/test_plugin_units.py" >"$OUT" 2>&1 \
  || fail "unit tests: $(tail -30 "$OUT")"

# 2. the session under cucheck
run_pytest --cucheck memcheck --cucheck-bin "$CUCHECK" planted
expect_rc 1 "--cucheck memcheck: pytest's status (a test failed)"
expect_in "$OUT" "FAILED planted/test_planted.py::test_overrun - cucheck: 1 finding in call" "the overrun fails"
expect_in "$OUT" "PASSED planted/test_planted.py::test_overrun_clean" "its clean twin passes"
expect_in "$OUT" "ERROR planted/test_planted.py::test_fixture_overrun - cucheck: 1 finding in s" "a fixture's overrun is a setup error"
expect_in "$OUT" "ERROR at setup of test_fixture_overrun" "a fixture's overrun is a setup error"
expect_in "$OUT" "PASSED planted/test_planted.py::test_warning_only" "a warning does not fail by default"
expect_in "$OUT" "XFAIL planted/test_planted.py::test_known_overrun_xfail" "an expected failure stays one"
expect_in "$OUT" "    In test: test_planted.py::test_overrun" "the test's report names it"
expect_in "$OUT" "    at vecadd(float const*, float const*, float*, int)+0x70 in vecadd_oob.cu:13" "the test's report says where"
expect_in "$OUT" "cucheck call" "the warning is in the passing test's report"
expect_in "$OUT" "=========     In test: test_planted.py::test_overrun" "cucheck's report names the test"
expect_in "$OUT" "=========     In test: test_planted.py::test_fixture_overrun" "cucheck's report names the fixture's test"
expect_not_in "$OUT" "findings outside their test" "every finding was in a test"
expect_in "$ERR" "cucheck: memcheck: 3 errors, 1 warning" "cucheck's summary"
[ "$(cat "$WORK/env.txt" 2>/dev/null)" = "test_planted.py::test_overrun_clean|off" ] \
  || fail "the running test and the event-thread knob as the test saw them: $(cat "$WORK/env.txt" 2>/dev/null)"

run_pytest --cucheck memcheck --cucheck-bin "$CUCHECK" --cucheck-fail-on warning planted
expect_in "$OUT" "FAILED planted/test_planted.py::test_warning_only" "--cucheck-fail-on warning fails a warning"

run_pytest --cucheck memcheck --cucheck-bin "$CUCHECK" -k clean planted
expect_rc 0 "only the clean twin: pytest's status 0"
expect_in "$OUT" "1 passed" "the clean twin passes"
expect_not_in "$OUT" "In test:" "no finding without an overrun"

FAKE_AT_COLLECTION=1 run_pytest --cucheck memcheck --cucheck-bin "$CUCHECK" -k clean planted
expect_rc 0 "a finding at collection fails no test"
expect_in "$OUT" "cucheck: findings outside their test" "a finding at collection is listed"
expect_not_in "$OUT" "In test:" "a finding at collection names no test"
expect_in "$OUT" "========= Invalid __global__ write of size 4 bytes" "cucheck's report has it"

# 3. cucheck's own report formats name the test
run_pytest --cucheck "memcheck --format json --output $WORK/out.jsonl" --cucheck-bin "$CUCHECK" -k "test_overrun and not clean" planted
expect_rc 1 "--format json: pytest's status"
expect_in "$WORK/out.jsonl" '"test":"test_planted.py::test_overrun"' "JSON Lines names the test"
run_pytest --cucheck "memcheck --format sarif --output $WORK/out.sarif" --cucheck-bin "$CUCHECK" -k "test_overrun and not clean" planted
expect_in "$WORK/out.sarif" '"test":"test_planted.py::test_overrun"' "SARIF names the test"

# 4. finding cucheck; the tool's options
CUCHECK_EXE="$CUCHECK" run_pytest --cucheck memcheck -k "test_overrun and not clean" planted
expect_rc 1 "cucheck from CUCHECK_EXE"
expect_in "$OUT" "FAILED planted/test_planted.py::test_overrun" "cucheck from CUCHECK_EXE runs the session"
mkdir -p "$WORK/bin"
ln -s "$CUCHECK" "$WORK/bin/cucheck"
PATH="$WORK/bin:$PATH" run_pytest --cucheck memcheck -k "test_overrun and not clean" planted
expect_in "$OUT" "FAILED planted/test_planted.py::test_overrun" "cucheck from PATH runs the session"
PATH="/usr/bin:/bin" run_pytest --cucheck memcheck planted
expect_rc 4 "no cucheck: a usage error"
expect_in "$ERR" "cannot find the cucheck executable" "no cucheck: says so"
run_pytest --cucheck "memcheck --bogus" --cucheck-bin "$CUCHECK" planted
expect_rc 2 "a bad tool option: cucheck's usage error"
expect_in "$ERR" "unknown option '--bogus'" "a bad tool option reaches cucheck"
run_pytest --cucheck "memcheck -- x" --cucheck-bin "$CUCHECK" planted
expect_rc 4 "'--' in the tool's options: a usage error"
run_pytest --cucheck "memcheck --mode full" --cucheck-bin "$CUCHECK" -k "test_overrun and not clean" planted
expect_rc 1 "memcheck --mode full"
expect_in "$OUT" "FAILED planted/test_planted.py::test_overrun" "the tool's options are accepted"

# pytest-xdist's workers are processes of their own, each with the plugin
if "$PY" -c 'import xdist' 2>/dev/null; then
  run_pytest --cucheck memcheck --cucheck-bin "$CUCHECK" -n 2 planted
  expect_rc 1 "-n 2: pytest's status"
  expect_in "$OUT" "FAILED planted/test_planted.py::test_overrun - cucheck: 1 finding in call" "-n 2: the overrun fails in its worker"
  expect_in "$OUT" "PASSED planted/test_planted.py::test_overrun_clean" "-n 2: the clean twin passes"
  expect_in "$ERR" "in 2 process reports" "-n 2: two workers' reports"
else
  echo "note: pytest-xdist is not installed; its check is left out"
fi

# 5. cucheck over pytest without --cucheck; and pytest without cucheck
"$CUCHECK" memcheck -- "$PY" -m pytest "${PLUGIN[@]}" -p no:cacheprovider \
  --rootdir "$WORK/planted" -rA planted >"$OUT" 2>"$ERR"
RC=$?
expect_rc 1 "cucheck memcheck -- pytest"
expect_in "$OUT" "FAILED planted/test_planted.py::test_overrun" "cucheck memcheck -- pytest: the overrun fails"
expect_in "$OUT" "=========     In test: test_planted.py::test_overrun" "cucheck memcheck -- pytest: named"
run_pytest planted
expect_rc 0 "without cucheck: pytest as it is"
expect_in "$OUT" "4 passed, 1 xfailed" "without cucheck: nothing checked, nothing fails"
expect_not_in "$OUT" "cucheck:" "without cucheck: the plugin says nothing"
finish
