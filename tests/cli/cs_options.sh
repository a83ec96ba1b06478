#!/usr/bin/env bash
# compute-sanitizer's option names (docs/cli.md, "compute-sanitizer's options"): each one is
# parsed, its effect is checked where it shows without a GPU (replayed scenarios for the text
# report's filters, a harmless stand-in agent and a program that writes its own report for the
# exit status and print levels), and every bad value is one line on stderr with exit 2 and no
# program started.
source "$(dirname "$0")/data/common.bash"
use_harmless_agent
MC="$DATA/cs_memcheck.scn"
SC="$DATA/cs_streams.scn"
MARK="$WORK/started"
PROG="$WORK/prog.sh"
printf '#!/bin/sh\ntouch "%s"\nexit "${1:-0}"\n' "$MARK" >"$PROG"
chmod +x "$PROG"

# refused DESC WANT ARGS...: exit 2, one line holding WANT, the program not started.
refused() {
  local desc="$1" want="$2"
  shift 2
  rm -f "$MARK"
  expect_usage_error "$desc" "$@"
  expect_in "$ERR" "$want" "$desc"
  [ ! -e "$MARK" ] || fail "$desc: the program was started"
}

# --- --demangle: full (default) / simple / no ---
run_cc replay --tool memcheck "$MC"
expect_in "$OUT" "at void kernel<thrust::complex<double> >(thrust::complex<double>*, thrust::complex<double>*, int)+0x70 in tmpl.cu:13" "demangle full is the default"
run_cc replay --tool memcheck --demangle full "$MC"
expect_in "$OUT" "at void kernel<thrust::complex<double> >(thrust::complex<double>*, thrust::complex<double>*, int)+0x70" "demangle full"
run_cc replay --tool memcheck --demangle simple "$MC"
expect_in "$OUT" "at kernel+0x70 in tmpl.cu:13" "demangle simple: no parameters, templates or return type"
run_cc replay --tool memcheck --demangle no "$MC"
expect_in "$OUT" "at _Z6kernelIN6thrust7complexIdEEEvPT_S4_i+0x70 in tmpl.cu:13" "demangle no: the mangled name"
# JSON keeps both names whatever the text shows
run_cc --format json replay --tool memcheck --demangle simple "$MC"
expect_in "$OUT" '"kernel_mangled":"_Z6kernelIN6thrust7complexIdEEEvPT_S4_i"' "json keeps the mangled name"
refused "demangle bad" "--demangle does not accept 'short' (expected full, simple or no)" \
  replay --tool memcheck --demangle short "$MC"

# --- --show-backtrace and --num-callers-host ---
run_cc replay --tool memcheck "$MC"
[ "$(grep -c 'Host frame:' "$OUT")" -eq 8 ] || fail "default: 4 frames in each of 2 stacks: $(cat "$OUT")"
for v in no device; do
  run_cc replay --tool memcheck --show-backtrace "$v" "$MC"
  expect_not_in "$OUT" "Host frame:" "show-backtrace $v hides host stacks"
  expect_in "$OUT" "at void kernel<" "show-backtrace $v keeps the device location"
done
for v in yes host; do
  run_cc replay --tool memcheck --show-backtrace "$v" "$MC"
  [ "$(grep -c 'Host frame:' "$OUT")" -eq 8 ] || fail "show-backtrace $v: $(cat "$OUT")"
done
run_cc replay --tool memcheck --num-callers-host 2 "$MC"
[ "$(grep -c 'Host frame:' "$OUT")" -eq 4 ] || fail "num-callers-host 2: two per stack: $(cat "$OUT")"
expect_in "$OUT" "... 2 more host frames" "num-callers-host counts the rest"
expect_not_in "$OUT" "loop+0x8" "num-callers-host 2 stops before the third frame"
run_cc replay --tool memcheck --num-callers-host 3 "$MC"
expect_in "$OUT" "... 1 more host frame" "num-callers-host 3"
run_cc replay --tool memcheck --num-callers-host 0 "$MC"
[ "$(grep -c 'Host frame:' "$OUT")" -eq 8 ] || fail "num-callers-host 0 = all"
refused "show-backtrace bad" "--show-backtrace does not accept 'maybe'" \
  replay --tool memcheck --show-backtrace maybe "$MC"
refused "num-callers-host bad" "--num-callers-host does not accept '-1'" \
  replay --tool memcheck --num-callers-host -1 "$MC"

# --- --print-level: all findings counted, those below the level not printed ---
run_cc --print-level error replay --tool memcheck --leak-check full "$MC"
expect_in "$OUT" "Leaked 64 bytes" "print-level error prints errors"
run_cc --print-level fatal replay --tool memcheck --leak-check full "$MC"
expect_not_in "$OUT" "Invalid __global__" "print-level fatal: a caught access error is not fatal"
expect_in "$OUT" "2 findings below --print-level not shown" "print-level says what it hid"
expect_in "$ERR" "2 errors" "print-level still counts"
run_cc --print-level fatal --error-exitcode 9 replay --tool memcheck "$MC"
expect_rc 9 "print-level does not change --error-exitcode"
run_cc --print-level fatal replay --tool run "$SOURCE_DIR/tests/scenarios/run/async_candidates.scn"
expect_in "$OUT" "[async-error]" "print-level fatal prints the asynchronous error"
refused "print-level bad" "--print-level does not accept 'warning' (expected info, warn, error or fatal)" \
  --print-level warning replay "$MC"
# warnings and notes come from a program's own report (the tools print errors only today)
REPORT="$WORK/report.sh"
cat >"$REPORT" <<'SH'
f="$(printf '%s' "$CUCHECK_REPORT" | sed "s/%p/$$/")"
printf '{"type":"header","format":"cucheck-report","format_version":1,"tool":"run","run":"%s","pid":1,"version":"0"}\n' "$CUCHECK_RUN_ID" >>"$f"
for sev in error warning info; do
  printf '{"type":"finding","id":1,"tool":"run","kind":"k-%s","severity":"%s","message":"seen %s","count":1}\n' "$sev" "$sev" "$sev" >>"$f"
done
SH
for level in info warn error; do
  run_cc --print-level "$level" run -- sh "$REPORT"
  expect_rc 0 "print-level $level run"
  expect_in "$OUT" "seen error" "print-level $level: error"
  case "$level" in
  info) expect_in "$OUT" "seen warning" "info: warning"; expect_in "$OUT" "seen info" "info: info" ;;
  warn) expect_in "$OUT" "seen warning" "warn: warning"; expect_not_in "$OUT" "seen info" "warn: info" ;;
  error) expect_not_in "$OUT" "seen warning" "error: warning"; expect_not_in "$OUT" "seen info" "error: info" ;;
  esac
  expect_in "$ERR" "1 error, 1 warning, 1 info" "print-level $level: all counted"
done
run_cc --format json --print-level warn run -- sh "$REPORT"
expect_not_in "$OUT" '"k-info"' "print-level applies to JSON"
expect_in "$OUT" '"k-warning"' "print-level warn keeps warnings in JSON"

# --- --log-file: the report into a file; %p = cucheck's pid, %q{VAR}, %% ---
run_cc --log-file "$WORK/log.%p.txt" replay --tool memcheck "$MC"
expect_rc 0 "log-file"
[ ! -s "$OUT" ] || fail "log-file: report still on stdout"
n="$(ls "$WORK"/log.*.txt 2>/dev/null | wc -l)"
[ "$n" -eq 1 ] || fail "log-file: $n files"
f="$(ls "$WORK"/log.*.txt | head -1)"
case "$f" in "$WORK"/log.[0-9]*.txt) ;; *) fail "log-file: %p not a pid: $f" ;; esac
expect_in "$f" "Invalid __global__ write" "log-file holds the report"
LOGTAG=rank7 run_cc --log-file "$WORK/q.%q{LOGTAG}.100%%.txt" replay --tool memcheck "$MC"
[ -s "$WORK/q.rank7.100%.txt" ] || fail "log-file %q{VAR} and %%: $(ls "$WORK")"
rm -f "$MARK"
run_cc --log-file "$WORK/live.%p.log" run -- "$PROG"
expect_rc 0 "log-file live run"
[ -e "$MARK" ] || fail "log-file: the program was not started"
ls "$WORK"/live.*.log >/dev/null 2>&1 || fail "log-file live run: no file"
refused "log-file bad %" "--log-file '$WORK/x.%d': '%' must be followed by p, q{VAR} or %" \
  --log-file "$WORK/x.%d" run -- "$PROG"
refused "log-file open %q" "a %q{ is not closed" --log-file "$WORK/x.%q{A" run -- "$PROG"

# --- --check-exit-code ---
run_cc run -- "$PROG" 3
expect_rc 3 "default: the program's status"
expect_not_in "$OUT" "program-exit" "default: no finding for the status"
run_cc --check-exit-code yes --error-exitcode 42 run -- "$PROG" 3
expect_rc 42 "check-exit-code yes: a non-zero status is an error"
expect_in "$OUT" "the program did not terminate successfully: exit status 3 [program-exit]" "check-exit-code finding"
run_cc --check-exit-code yes --error-exitcode 42 run -- "$PROG" 0
expect_rc 0 "check-exit-code yes, status 0"
expect_not_in "$OUT" "program-exit" "status 0: no finding"
run_cc run --check-exit-code no --error-exitcode 42 -- "$PROG" 3
expect_rc 3 "check-exit-code no after the tool name"
run_cc --check-exit-code yes run -- sh -c 'kill -SEGV $$'
expect_in "$OUT" "killed by signal 11" "check-exit-code: a signal"
refused "check-exit-code bad" "--check-exit-code does not accept 'true' (expected yes or no)" \
  --check-exit-code true run -- "$PROG"

# --- --target-processes ---
rm -f "$MARK"
run_cc --target-processes all run -- "$PROG"
expect_rc 0 "target-processes all"
rm -f "$MARK"
run_cc --target-processes application-only run -- "$PROG"
expect_rc 0 "target-processes application-only"
[ -e "$MARK" ] || fail "--target-processes application-only: the program was not started"
refused "target-processes bad" "--target-processes does not accept 'some'" \
  --target-processes some run -- "$PROG"

# --- --tool NAME as compute-sanitizer writes it ---
rm -f "$MARK"
run_cc --tool run -- "$PROG"
expect_rc 0 "--tool run"
[ -e "$MARK" ] || fail "--tool run: the program was not started"
rm -f "$MARK"
run_cc --tool memcheck --leak-check full --print-level error "$PROG"
expect_rc 0 "--tool memcheck with tool options, program without --"
[ -e "$MARK" ] || fail "--tool memcheck: the program was not started"
run_cc memcheck --tool memcheck -- "$PROG"
expect_rc 0 "--tool repeating the tool name"
rm -f "$MARK"
run_cc --tool racecheck -- "$PROG"
expect_rc 0 "--tool racecheck"
[ -e "$MARK" ] || fail "--tool racecheck: the program was not started"
rm -f "$MARK"
run_cc --tool initcheck -- "$PROG"
expect_rc 0 "--tool initcheck"
[ -e "$MARK" ] || fail "--tool initcheck: the program was not started"
rm -f "$MARK"
run_cc --tool synccheck -- "$PROG"
expect_rc 0 "--tool synccheck"
[ -e "$MARK" ] || fail "--tool synccheck: the program was not started"
refused "--tool unknown" "--tool: unknown tool 'nosuch'" --tool nosuch -- "$PROG"
refused "--tool contradicting" "--tool streamcheck contradicts the tool name 'memcheck'" \
  memcheck --tool streamcheck -- "$PROG"
refused "--tool memcheck bad tool option" "option '--leak-check' does not accept 'yes'" \
  --tool memcheck --leak-check yes -- "$PROG"

# --- --report-api-errors (run; memcheck accepts it) ---
API="$DATA/api_error.scn"
run_cc replay --tool run --report-api-errors explicit "$API"
expect_in "$OUT" "[api-error]" "report-api-errors explicit reports"
run_cc replay --tool run --report-api-errors no "$API"
expect_not_in "$OUT" "[api-error]" "report-api-errors no"
expect_in "$OUT" "failed API calls were counted, not reported" "report-api-errors no: note"
run_cc replay --tool run --report-api-errors all "$API"
expect_in "$OUT" "[api-error]" "report-api-errors all reports"
expect_in "$OUT" "reports what explicit does" "report-api-errors all: note"
run_cc replay --tool memcheck --report-api-errors no "$MC"
expect_rc 0 "memcheck accepts report-api-errors"
refused "report-api-errors bad" "option '--report-api-errors' does not accept 'some' (expected all, explicit or no" \
  run --report-api-errors some -- "$PROG"

# --- --kernel-name / --kernel-name-exclude (memcheck) ---
for f in "kns=kernelIN6thrust" "kernel_substring=thrust" "kne=_Z6kernelIN6thrust7complexIdEEEvPT_S4_i" \
  "kernel_name=_Z6kernelIN6thrust7complexIdEEEvPT_S4_i"; do
  run_cc memcheck --kernel-name "$f" -- "$PROG"
  expect_rc 0 "kernel-name $f accepted"
  run_cc memcheck --kernel-name-exclude "$f" -- "$PROG"
  expect_rc 0 "kernel-name-exclude $f accepted"
done
refused "kernel-name regex" "cucheck takes no regular expressions" memcheck --kernel-name 'regex=k.*' -- "$PROG"
refused "kernel-name no key" "option '--kernel-name' does not accept 'kernel' (expected kernel_name=NAME" \
  memcheck --kernel-name kernel -- "$PROG"
refused "kernel-name two pairs" "one key=value per option" memcheck --kernel-name 'kns=a,kns=b' -- "$PROG"
refused "kernel-name empty" "with a non-empty value" memcheck --kernel-name 'kns=' -- "$PROG"
refused "kernel-name beside kernel-include" "no --kernel-include beside it" \
  memcheck --kernel-include 'k*' --kernel-name kns=k -- "$PROG"

# --- --launch-skip / --launch-count (streamcheck) ---
run_cc replay --tool streamcheck "$SC"
expect_in "$OUT" "[race]" "streamcheck: the race without a window"
for opt in "--launch-skip 1" "--launch-count 1"; do
  # shellcheck disable=SC2086
  run_cc replay --tool streamcheck $opt "$SC"
  expect_not_in "$OUT" "[race]" "streamcheck $opt: one side unchecked"
  expect_in "$OUT" "the accesses of 1 of 2 kernel launch(es) were not checked" "streamcheck $opt note"
done
run_cc replay --tool streamcheck --launch-skip 0 --launch-count 2 "$SC"
expect_in "$OUT" "[race]" "streamcheck: a window holding both launches"
refused "streamcheck launch-skip bad" "option '--launch-skip' does not accept 'x'" \
  streamcheck --launch-skip x -- "$PROG"

# --- help names them ---
run_cc --help
for o in --log-file --print-level --show-backtrace --num-callers-host --demangle --check-exit-code \
  --target-processes --tool; do
  expect_in "$OUT" "$o" "--help lists $o"
done
run_cc streamcheck --help
expect_in "$OUT" "--launch-skip" "streamcheck --help"
run_cc memcheck --help
expect_in "$OUT" "--kernel-name-exclude" "memcheck --help"
run_cc run --help
expect_in "$OUT" "--report-api-errors" "run --help"

finish
