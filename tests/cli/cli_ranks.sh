#!/usr/bin/env bash
# One report per rank, merged by rank, without a GPU or the real agent: a harmless library
# stands in for the agent and each process writes its own report where $CUCHECK_REPORT says, as
# the agent does (%r = "rank<R>." when RANK is set, %p = its pid; the header carries the rank,
# local rank and world size). Checks: the default report names hold the rank; a finding seen by
# ranks 0 and 1 folds into one (count 2) that says "(ranks 0,1)", one seen by rank 1 alone says
# "(rank 1)", runs of ranks read "0-3"; the summary names the ranks (and the processes without
# one); JSON and SARIF carry "ranks" and "pids"; several processes without ranks are named by
# pid; a single process of an older report (no rank in its header) reads as before.
source "$(dirname "$0")/data/common.bash"
use_harmless_agent

# $REPORT KIND [OLD]: a process that writes one error finding of KIND to its report; with OLD
# the header is an older writer's (no rank keys).
REPORT="$WORK/report.sh"
cat >"$REPORT" <<'SH'
f="$(printf '%s' "$CUCHECK_REPORT" | sed "s/%r/${RANK:+rank$RANK.}/; s/%p/$$/")"
keys=""
[ -n "${RANK:-}" ] && [ -z "${2:-}" ] && keys=",\"rank\":$RANK,\"local_rank\":$RANK,\"world_size\":${WORLD_SIZE:-1}"
printf '{"type":"header","format":"cucheck-report","format_version":1,"tool":"run","run":"%s","pid":%s%s,"version":"0"}\n' "$CUCHECK_RUN_ID" "$$" "$keys" >>"$f"
printf '{"type":"finding","id":1,"tool":"run","kind":"%s","severity":"error","message":"seen %s","count":1}\n' "$1" "$1" >>"$f"
SH
rank() { # rank R KIND: the report of rank R of a world of 2
  printf 'RANK=%s WORLD_SIZE=2 sh %s %s; ' "$1" "$REPORT" "$2"
}

# Two ranks see the same bug; rank 1 one more.
prog="$(rank 0 bad) $(rank 1 bad) $(rank 1 only1)"
run_cc --keep-reports run -- sh -c "$prog"
expect_rc 0 "two ranks"
kept="$(sed -n 's/^cucheck: reports kept in //p' "$ERR")"
names="$(ls "$kept" 2>/dev/null | tr '\n' ' ')"
[ "$(ls "$kept" | grep -c '^cucheck\.[0-9a-f]*\.rank0\.[0-9]*\.jsonl$')" -eq 1 ] &&
  [ "$(ls "$kept" | grep -c '^cucheck\.[0-9a-f]*\.rank1\.[0-9]*\.jsonl$')" -eq 2 ] ||
  fail "default report names by rank: $names"
expect_in "$OUT" "========= seen bad [bad] (ranks 0,1)" "a finding of two ranks names both"
expect_in "$OUT" "(seen 2 times)" "identical findings of two ranks fold, counts summed"
[ "$(grep -c 'seen bad' "$OUT")" -eq 1 ] || fail "the folded finding is printed once: $(cat "$OUT")"
expect_in "$OUT" "========= seen only1 [only1] (rank 1)" "a finding of one rank names it"
expect_in "$ERR" "2 errors, 0 warnings (3 occurrences) in 3 process reports (ranks 0,1)" "summary names the ranks"

run_cc --format json run -- sh -c "$prog"
python3 - "$OUT" <<'PY' || fail "JSON ranks: $(cat "$OUT")"
import json, sys
f = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
f = {r["kind"]: r for r in f if r.get("type") == "finding"}
assert f["bad"]["count"] == 2 and f["bad"]["ranks"] == [0, 1], f["bad"]
assert len(f["bad"]["pids"]) == 2, f["bad"]
assert f["only1"]["ranks"] == [1] and len(f["only1"]["pids"]) == 1, f["only1"]
PY

run_cc --format sarif run -- sh -c "$prog"
python3 - "$OUT" <<'PY' || fail "SARIF ranks: $(head -c 600 "$OUT")"
import json, sys
log = json.load(open(sys.argv[1]))
res = {r["ruleId"]: r["properties"] for r in log["runs"][0]["results"]}
assert res["bad"]["ranks"] == [0, 1] and res["bad"]["count"] == 2, res["bad"]
assert res["only1"]["ranks"] == [1], res["only1"]
PY

# Four ranks: a range; a process without a rank (the launcher) is counted apart.
prog="$(rank 0 bad) $(rank 1 bad) $(rank 2 bad) $(rank 3 bad) sh $REPORT bad"
run_cc run -- sh -c "$prog"
expect_in "$OUT" "(ranks 0-3; pid " "ranks as a range, and the pid of the process without one"
expect_in "$ERR" "in 5 process reports (ranks 0-3 and 1 process without a rank)" "summary, mixed"

# An older writer's header (no rank keys) still loads; one process: nothing more is said.
run_cc --format json run -- sh -c "RANK=0 sh $REPORT old old"
expect_in "$OUT" '"kind":"old"' "an older report loads"
expect_not_in "$OUT" '"ranks"' "no ranks without rank keys"
expect_not_in "$OUT" '"pids"' "one process: no pids"
run_cc run -- sh -c "sh $REPORT single"
expect_in "$OUT" "========= seen single [single]"$'\n' "one process without a rank: title as before"
expect_in "$ERR" "in 1 process report" "one process: summary as before"
expect_not_in "$ERR" "rank" "one process: no ranks in the summary"

# Several processes without ranks: named by pid.
run_cc run -- sh -c "sh $REPORT p; sh $REPORT p"
grep -q '^========= seen p \[p\] (pids [0-9]*,[0-9]*)$' "$OUT" || fail "processes by pid: $(cat "$OUT")"

finish
