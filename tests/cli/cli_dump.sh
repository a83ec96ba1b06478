#!/usr/bin/env bash
# cucheck dump: prints one scenario line per event; the printed form reads back unchanged; a
# scenario converts to .cuevt (--cuevt) and back; damaged or random input gives a clear message
# with the byte offset (or line) and a non-zero exit status, never a crash.
source "$(dirname "$0")/data/common.bash"
SCN="$DATA/api_error.scn"
nevents="$(grep -cv '^\s*\(#\|$\)' "$SCN")"

run_cc dump "$SCN"
expect_rc 0 "dump scenario"
[ "$(wc -l <"$OUT")" -eq "$nevents" ] || fail "dump printed $(wc -l <"$OUT") lines for $nevents events"
expect_in "$OUT" "api_error" "dump shows the api_error event"
expect_in "$OUT" "cudaMalloc" "dump shows the function"
[ -s "$ERR" ] && fail "dump wrote to stderr: $(cat "$ERR")"
cp "$OUT" "$WORK/d1.scn"

# The dump reads back to the same dump.
run_cc dump "$WORK/d1.scn"
expect_rc 0 "dump of a dump"
cmp -s "$OUT" "$WORK/d1.scn" || fail "dump of a dump differs: $(diff "$WORK/d1.scn" "$OUT")"

# Text -> binary -> text.
run_cc dump --cuevt "$WORK/a.cuevt" "$SCN"
expect_rc 0 "dump --cuevt"
[ -s "$WORK/a.cuevt" ] || fail "dump --cuevt wrote nothing"
[ "$(head -c 5 "$WORK/a.cuevt")" = "CUEVT" ] || fail "dump --cuevt: no CUEVT magic"
run_cc dump "$WORK/a.cuevt"
expect_rc 0 "dump of .cuevt"
cmp -s "$OUT" "$WORK/d1.scn" || fail "binary round trip differs: $(diff "$WORK/d1.scn" "$OUT")"
run_cc dump -- "$WORK/a.cuevt"
expect_rc 0 "dump -- FILE"

# Damaged recordings: cut short, extra junk at the end.
size="$(stat -c %s "$WORK/a.cuevt")"
head -c $((size - 3)) "$WORK/a.cuevt" >"$WORK/cut.cuevt"
run_cc dump "$WORK/cut.cuevt"
[ "$RC" -eq 1 ] || fail "truncated .cuevt: exit status $RC, expected 1"
expect_in "$ERR" "offset" "truncated .cuevt message"
[ "$(wc -l <"$ERR")" -eq 1 ] || fail "truncated .cuevt: not one line: $(cat "$ERR")"
[ "$(wc -l <"$OUT")" -eq $((nevents - 1)) ] || fail "truncated .cuevt: events before the damage not all printed"
{ cat "$WORK/a.cuevt"; head -c 64 /dev/urandom; } >"$WORK/junk.cuevt"
run_cc dump "$WORK/junk.cuevt"
[ "$RC" -ne 0 ] || fail "junk after .cuevt: exit status 0"
expect_in "$ERR" "offset" "junk after .cuevt message"
{ head -c 8 "$WORK/a.cuevt"; head -c 200 /dev/urandom; } >"$WORK/badhdr.cuevt"
run_cc dump "$WORK/badhdr.cuevt"
[ "$RC" -ne 0 ] || fail "random bytes after the magic: exit status 0"
expect_in "$ERR" "offset" "random bytes after the magic"

# Random bytes (several seeds' worth): non-zero exit, one message with an offset, no crash.
for i in 1 2 3 4 5; do
  head -c $((256 * i + 7)) /dev/urandom >"$WORK/rnd.bin"
  run_cc dump "$WORK/rnd.bin"
  if [ "$RC" -eq 0 ] || [ "$RC" -ge 128 ]; then
    fail "random bytes #$i: exit status $RC"
  fi
  expect_in "$ERR" "offset" "random bytes #$i"
  [ "$(wc -l <"$ERR")" -eq 1 ] || fail "random bytes #$i: not one line: $(cat "$ERR")"
done

# A scenario with a misspelled key: the line is named, the events before it are printed.
run_cc dump "$DATA/bad_key.scn"
expect_rc 1 "bad scenario"
expect_in "$ERR" "line 4" "bad scenario names the line"
[ "$(wc -l <"$OUT")" -eq 2 ] || fail "bad scenario: expected the 2 events before the error"

# A file that does not exist.
run_cc dump "$WORK/does-not-exist.cuevt"
expect_rc 1 "missing file"
expect_in "$ERR" "does-not-exist.cuevt" "missing file named"
finish
