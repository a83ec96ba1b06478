#!/usr/bin/env bash
# bench/rounds.sh counts only runs that really ran checked: a run whose agent could not attach
# (cucheck says so on stderr, the program ran unchecked at native speed), one that exits
# non-zero and one that prints no BENCH_TIME_MS are shown as x, counted as failed and left out
# of the median, and the script exits 1 (a non-zero exit is shown with the run's last stderr
# line); clean runs give the median and ratio as before, and every counted figure is on stderr
# as it is taken.
source "$(dirname "$0")/data/common.bash"

rounds="$SOURCE_DIR/bench/rounds.sh"
cfg="$WORK/rounds.cfg"
printf '%s\t%s\n' \
  "native" "echo BENCH_TIME_MS 10" \
  "checked" "echo BENCH_TIME_MS 30" \
  "no attach" "echo BENCH_TIME_MS 11; echo 'cucheck: cannot attach: another CUDA tools-API client' >&2" \
  "no report" "echo BENCH_TIME_MS 12; echo 'cucheck: note: no process wrote a report' >&2" \
  "crashed" "echo BENCH_TIME_MS 13; echo 'Traceback: cudnn failed' >&2; echo >&2; exit 139" \
  "silent" "true" >"$cfg"
bash "$rounds" "$cfg" 3 10 >"$OUT" 2>"$ERR"
RC=$?
expect_rc 1 "rounds.sh with failed runs"
expect_in "$OUT" "| native | 10 | 1.000 | 0 | 10 10 10 |" "native row"
expect_in "$OUT" "| checked | 30 | 3.000 | 0 | 30 30 30 |" "checked row"
for label in "no attach" "no report" "crashed" "silent"; do
  expect_in "$OUT" "| $label | - | - | 3 | x x x |" "$label row (not counted)"
done
expect_in "$ERR" "no attach, round 1: not counted: cucheck: cannot attach" "the reason on stderr"
expect_in "$ERR" "crashed, round 3: not counted: exit 139 (stderr: Traceback: cudnn failed)" \
  "the exit status and the run's last stderr line"
expect_in "$ERR" "checked, round 2: 30 ms" "each counted run's figure on stderr as it is taken"

printf 'native\techo BENCH_TIME_MS 4\nother\techo BENCH_TIME_MS 6\n' >"$cfg"
bash "$rounds" "$cfg" 2 >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "rounds.sh with every run counted"
expect_in "$OUT" "| other | 6 | 1.500 | 0 | 6 6 |" "ratio to the first configuration"
bash "$rounds" "$cfg" two >"$OUT" 2>"$ERR"
RC=$?
expect_rc 2 "ROUNDS not a number"

# memory columns: the medians of BENCH_DEVICE_USED_MIB / BENCH_HOST_PEAK_MIB and the excess over
# the first configuration; failed runs leave them out
printf '%s\t%s\n' \
  "native" "echo BENCH_TIME_MS 10; echo BENCH_DEVICE_USED_MIB 1000; echo BENCH_HOST_PEAK_MIB 500" \
  "tool" "echo BENCH_TIME_MS 12; echo BENCH_DEVICE_USED_MIB 1300; echo BENCH_HOST_PEAK_MIB 650" \
  "broken" "echo BENCH_TIME_MS 9; echo BENCH_DEVICE_USED_MIB 1; exit 3" >"$cfg"
bash "$rounds" "$cfg" 3 >"$OUT" 2>"$ERR"
RC=$?
expect_rc 1 "rounds.sh with memory lines and a failed configuration"
expect_in "$OUT" "| runs | device MiB | extra device MiB | host peak MiB | extra host MiB |" "memory header"
expect_in "$OUT" "| native | 10 | 1.000 | 0 | 10 10 10 | 1000 | +0 | 500 | +0 |" "native memory"
expect_in "$OUT" "| tool | 12 | 1.200 | 0 | 12 12 12 | 1300 | +300 | 650 | +150 |" "a tool's extra memory"
expect_in "$OUT" "| broken | - | - | 3 | x x x | - | - | - | - |" "no memory from failed runs"
finish
