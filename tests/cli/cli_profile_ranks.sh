#!/usr/bin/env bash
# `cucheck profile --trace FILE` over a program of several processes, without a GPU or the real
# agent: a harmless library stands in for the agent and each process writes a small timeline
# where the profile's trace option (in $CUCHECK_OPTIONS) says, as the profile tool does (%r =
# "rank<R>.", %p = its pid, ".gz" added under --gzip). Checks: a plain FILE is given to the
# processes as per-process parts beside it, named by run and rank, and at the end the parts are
# merged into FILE (one timeline, every rank's events, a process per rank, on one clock) and
# removed; --keep-reports keeps them; one process's part becomes FILE unchanged; gzip'ed parts
# merge into FILE.gz; with a per-process pattern the files stay separate, and --merge-trace OUT
# also merges this run's files (not an older one) into OUT; --merge-trace with a plain FILE or
# without --trace is refused before the program starts.
source "$(dirname "$0")/data/common.bash"
use_harmless_agent
mkdir -p "$WORK/t"
unset RANK

# $TRACE: writes the timeline of "rank $RANK" (base wall clock 1000 + RANK µs) where the trace
# option says.
TRACE="$WORK/trace.sh"
cat >"$TRACE" <<'SH'
pat="$(printf '%s\n' "$CUCHECK_OPTIONS" | sed -n 's/^trace=//p')"
gz="$(printf '%s\n' "$CUCHECK_OPTIONS" | grep -c '^gzip=')"
f="$(printf '%s' "$pat" | sed "s/%r/${RANK:+rank$RANK.}/; s/%p/$$/; s/%q{RANK}/${RANK:-}/")"
r="${RANK:--1}"
body="$(printf '{"cucheck":{"format":1,"pid":%s,"rank":%s,"base_wall_ns":%s000,"has_wall_clock":true},"traceEvents":[\n{"pid":%s,"tid":1,"ph":"M","name":"process_name","args":{"name":"rank %s"}},\n{"pid":%s,"tid":1,"ts":1.000,"ph":"X","name":"kernel_of_rank_%s","dur":1}\n]}' \
  "$$" "$r" "$((1000 + ${RANK:-0}))" "$$" "$r" "$$" "$r")"
if [ "$gz" -gt 0 ]; then
  case "$f" in *.gz) ;; *) f="$f.gz" ;; esac
  printf '%s\n' "$body" | gzip -c >"$f"
else
  printf '%s\n' "$body" >"$f"
fi
SH
ranks() { # the program: ranks 0..N-1 each write a trace
  local p="" i
  for ((i = 0; i < $1; i++)); do p="$p RANK=$i sh $TRACE;"; done
  printf '%s' "$p"
}
check_merged() { # FILE N DESC: FILE is one timeline holding ranks 0..N-1
  python3 - "$1" "$2" <<'PY' || fail "$3: $(head -c 600 "$1" 2>&1)"
import gzip, json, sys
path, n = sys.argv[1], int(sys.argv[2])
raw = open(path, "rb").read()
if raw[:2] == b"\x1f\x8b":
    raw = gzip.decompress(raw)
t = json.loads(raw)
ev = t["traceEvents"]
kernels = sorted(e["name"] for e in ev if e.get("ph") == "X")
assert kernels == ["kernel_of_rank_%d" % r for r in range(n)], kernels
pids = {e["pid"] for e in ev if e.get("ph") == "X"}
assert len(pids) == n, pids  # a process (track group) per rank
ts = sorted(e["ts"] for e in ev if e.get("ph") == "X")
assert ts[-1] > ts[0], ts  # shifted onto one clock: rank r starts r µs later
PY
}

# A plain FILE, two ranks: merged into FILE, parts removed.
run_cc profile --trace "$WORK/t/all.json" -- sh -c "$(ranks 2)"
expect_rc 0 "two ranks"
check_merged "$WORK/t/all.json" 2 "two ranks merged into FILE"
expect_in "$ERR" "profile: traces of 2 processes merged into $WORK/t/all.json" "merge said"
[ "$(ls "$WORK/t")" = "all.json" ] || fail "parts left behind: $(ls "$WORK/t")"

# --keep-reports keeps the parts, named by run and rank.
run_cc --keep-reports profile --trace "$WORK/t/keep.json" -- sh -c "$(ranks 2)"
check_merged "$WORK/t/keep.json" 2 "kept parts: merged"
[ "$(ls "$WORK/t" | grep -c '^keep\.json\.[0-9a-f]\{16\}\.rank[01]\.[0-9]*\.part$')" -eq 2 ] ||
  fail "parts named by run and rank: $(ls "$WORK/t")"
rm -f "$WORK/t"/keep.json.*

# One process: its trace becomes FILE as it was written (no renumbering).
run_cc profile --trace "$WORK/t/one.json" -- sh "$TRACE"
expect_in "$WORK/t/one.json" '"rank":-1' "one process: its own trace"
grep -q "\"pid\":$((0 + $(sed -n 's/.*"cucheck":{"format":1,"pid":\([0-9]*\).*/\1/p' "$WORK/t/one.json"))),\"tid\":1,\"ts\"" \
  "$WORK/t/one.json" || fail "one process: pids unchanged: $(cat "$WORK/t/one.json")"
[ "$(ls "$WORK/t" | grep -c '^one')" -eq 1 ] || fail "one process: parts left: $(ls "$WORK/t")"

# gzip: FILE.gz.
run_cc profile --gzip --trace "$WORK/t/z.json" -- sh -c "$(ranks 3)"
check_merged "$WORK/t/z.json.gz" 3 "gzip'ed parts merged into FILE.gz"
[ "$(ls "$WORK/t" | grep -c '^z\.')" -eq 1 ] || fail "gzip: parts left: $(ls "$WORK/t")"

# A per-process pattern: separate files, no merge unless --merge-trace; an older file of the
# pattern is not taken.
mkdir -p "$WORK/s"
printf '{"cucheck":{"format":1,"rank":7,"base_wall_ns":1000,"has_wall_clock":true},"traceEvents":[\n{"pid":1,"tid":1,"ts":1.000,"ph":"X","name":"old_run","dur":1}\n]}\n' >"$WORK/s/r.7.json"
touch -d '2 hours ago' "$WORK/s/r.7.json"
run_cc profile --trace "$WORK/s/r.%q{RANK}.json" -- sh -c "$(ranks 2)"
[ "$(ls "$WORK/s" | tr '\n' ' ')" = "r.0.json r.1.json r.7.json " ] || fail "separate files: $(ls "$WORK/s")"
expect_not_in "$ERR" "merged" "no merge without --merge-trace"
run_cc profile --trace "$WORK/s/r.%q{RANK}.json" --merge-trace "$WORK/s/all.json" -- sh -c "$(ranks 2)"
check_merged "$WORK/s/all.json" 2 "--merge-trace"
expect_not_in "$WORK/s/all.json" "old_run" "--merge-trace: only this run's files"
[ -f "$WORK/s/r.0.json" ] && [ -f "$WORK/s/r.1.json" ] || fail "--merge-trace keeps the files"

expect_usage_error "--merge-trace beside a plain --trace" \
  profile --trace "$WORK/t/p.json" --merge-trace "$WORK/t/m.json" -- true
expect_usage_error "--merge-trace without --trace" profile --merge-trace "$WORK/t/m.json" -- true
expect_usage_error "--merge-trace with %" \
  profile --trace "$WORK/s/r.%p.json" --merge-trace "$WORK/t/m.%p.json" -- true


# The agent's note names a part as a part (replayed, no program): the CLI merges the parts and
# removes them, so the note must not read like the final trace.
scn="$SOURCE_DIR/tests/scenarios/profile/kernels_demangled.scn"
"$CUCHECK" replay --tool profile --trace "$WORK/t/x.42.rank0.7.part" "$scn" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "replay writing a part"
expect_in "$OUT" "x.42.rank0.7.part (this process's part: cucheck merges the parts" "a part's note"
"$CUCHECK" replay --tool profile --trace "$WORK/t/whole.json" "$scn" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "replay writing a whole trace"
expect_in "$OUT" "trace written to $WORK/t/whole.json" "a whole trace's note"
expect_not_in "$OUT" "this process's part" "no part wording for a whole trace"
finish
