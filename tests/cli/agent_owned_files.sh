#!/usr/bin/env bash
# Files cannot be redirected: a name planted in a report or record directory that another user
# can write to (a symbolic link to a file of the user's, at the name a process will use) is never
# written through. The target stays untouched and cucheck says the name is taken: the agent for a
# per-process report or recording (the name is predictable from the pid: here the program plants
# the link at its own pid's name and exec's, so the next image opens it), the CLI before the run
# for a fixed --report-file, and for --output. Reports and recordings are created 0600; the
# --output file is not inherited by the program; an own file at a fixed name is still reused.
# Needs the real agent (runs programs without CUDA); exit 77 when it was not built.
source "$(dirname "$0")/data/common.bash"
[ -f "$BINARY_DIR/src/agent/libcucheck_agent.so" ] || { echo "skip: agent not built"; exit 77; }
export TMPDIR="$WORK/tmp"
mkdir -p "$TMPDIR"

SHARED="$WORK/shared" # a directory another user can write to
mkdir -p "$SHARED"
chmod 1777 "$SHARED"
TARGET="$WORK/precious" # a file of the user's that an attacker wants overwritten
printf 'precious contents\n' >"$TARGET"

untouched() { # DESC (then the target is made whole again for the next check)
  cmp -s "$TARGET" - <<<"precious contents" ||
    fail "$1: the link's target was written: $(head -c 300 "$TARGET" | tr -d '\0')"
  printf 'precious contents\n' >"$TARGET"
}

# 1. Per-process report at a predictable name (%p): the exec'd image finds a link there.
run_cc --report-dir "$SHARED" --report-file 'rep.%p.jsonl' run -- \
  sh -c "ln -sf '$TARGET' '$SHARED'/rep.\$\$.jsonl && exec /bin/true"
untouched "report link"
expect_in "$ERR" "is taken" "report link: the agent says the name is taken"
expect_in "$ERR" "symbolic link" "report link: says what holds the name"

# 2. Recording at a predictable name: neither truncated nor written.
run_cc --record "$SHARED/rec.%p.cuevt" run -- \
  sh -c "ln -sf '$TARGET' '$SHARED'/rec.\$\$.cuevt && exec /bin/true"
untouched "record link"
expect_in "$ERR" "is taken" "record link: the agent says the name is taken"

# 3. A fixed --report-file that is a link: refused before the program starts (exit 2).
ln -sf "$TARGET" "$SHARED/fixed.jsonl"
run_cc --report-file "$SHARED/fixed.jsonl" run -- sh -c 'echo started >&2'
expect_rc 2 "fixed --report-file link"
untouched "fixed --report-file link"
expect_in "$ERR" "is taken" "fixed --report-file link: says the name is taken"
expect_not_in "$ERR" "started" "fixed --report-file link: the program did not start"

# 4. The agent alone (no CLI) with a report name that is a link.
ln -sf "$TARGET" "$SHARED/direct.jsonl"
CUCHECK_REPORT="$SHARED/direct.jsonl" LD_PRELOAD="$BINARY_DIR/src/agent/libcucheck_agent.so" \
  /bin/true 2>"$ERR"
untouched "agent alone"
expect_in "$ERR" "is taken" "agent alone: says the name is taken"

# 5. --output that is a link in a directory others can write: refused, nothing runs.
ln -sf "$TARGET" "$SHARED/out.txt"
run_cc --output "$SHARED/out.txt" run -- sh -c 'echo started >&2'
expect_rc 2 "--output link"
untouched "--output link"
expect_in "$ERR" "is taken" "--output link: says the name is taken"
expect_not_in "$ERR" "started" "--output link: the program did not start"

# 6. Modes: reports and recordings 0600; an own file at a fixed name is reused (the report
#    gets a new section, the recording and --output are replaced).
mine="$WORK/mine"
mkdir -p "$mine"
for i in 1 2; do
  run_cc --report-file "$mine/r.jsonl" --record "$mine/rec.cuevt" --output "$mine/out.txt" \
    run -- /bin/true
  expect_rc 0 "own fixed names, run $i"
done
[ "$(grep -c '"type":"header"' "$mine/r.jsonl")" -eq 2 ] || fail "own report file: expected 2 sections"
[ "$(head -c 5 "$mine/rec.cuevt")" = CUEVT ] || fail "own recording: not a recording"
"$CUCHECK" dump "$mine/rec.cuevt" >/dev/null 2>&1 || fail "own recording replaced: does not read back"
for f in r.jsonl rec.cuevt out.txt; do
  m="$(stat -c %a "$mine/$f")"
  [ "$m" = 600 ] || fail "$f: mode $m, expected 600"
done
# a link of the user's own in the user's own directory (/dev/stdout is one) is still followed
run_cc --output /dev/stdout run -- /bin/true
expect_rc 0 "--output /dev/stdout"

# 7. The --output file descriptor is not inherited by the program.
run_cc --output "$mine/out2.txt" run -- sh -c 'ls -l /proc/$$/fd/ >&2'
expect_rc 0 "--output not inherited: run"
expect_not_in "$ERR" "out2.txt" "--output not inherited: the program holds it open"

finish
