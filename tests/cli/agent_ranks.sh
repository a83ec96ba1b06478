#!/usr/bin/env bash
# agent_ranks.sh: the real agent under a launcher's variables, without a GPU. Two "ranks" (a
# program run twice with RANK/LOCAL_RANK/WORLD_SIZE as torchrun sets them, once with Open MPI's
# names) and the process that starts them (no rank) each write one report: the default names
# hold "rank<R>." before the pid for the ranks and nothing for the launcher, every header says
# its rank, local rank and world size (the launcher's none), and the summary names the ranks.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when the agent was not built.
source "$(dirname "$0")/data/common.bash"
[ -f "$BINARY_DIR/src/agent/libcucheck_agent.so" ] || { echo "skip: agent not built"; exit 77; }
unset CUCHECK_AGENT RANK LOCAL_RANK WORLD_SIZE OMPI_COMM_WORLD_RANK OMPI_COMM_WORLD_LOCAL_RANK \
    OMPI_COMM_WORLD_SIZE SLURM_PROCID SLURM_LOCALID SLURM_NTASKS PMI_RANK PMIX_RANK PMI_SIZE \
    MPI_LOCALRANKID

prog='RANK=0 LOCAL_RANK=0 WORLD_SIZE=2 /bin/true; OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_LOCAL_RANK=1 OMPI_COMM_WORLD_SIZE=2 /bin/true'
run_cc --report-dir "$WORK/rd" run -- sh -c "$prog"
expect_rc 0 "two ranks and their launcher"
expect_in "$ERR" "in 3 process reports (ranks 0,1 and 1 process without a rank)" "summary"
python3 - "$WORK/rd" <<'PY' || fail "report names and headers: $(ls "$WORK/rd"; head -n1 "$WORK/rd"/*)"
import json, os, re, sys
d = sys.argv[1]
names = sorted(os.listdir(d))
assert len(names) == 3, names
heads = {}
for n in names:
    m = re.fullmatch(r"cucheck\.([0-9a-f]{16})\.(rank(\d+)\.)?(\d+)\.jsonl", n)
    assert m, n
    h = json.loads(open(os.path.join(d, n)).readline())
    assert h["type"] == "header" and h["run"] == m.group(1) and h["pid"] == int(m.group(4)), (n, h)
    rank = int(m.group(3)) if m.group(3) else None
    assert h.get("rank") == rank, (n, h)
    heads[rank] = h
assert set(heads) == {None, 0, 1}, names
assert (heads[0]["local_rank"], heads[0]["world_size"]) == (0, 2), heads[0]
assert (heads[1]["local_rank"], heads[1]["world_size"]) == (1, 2), heads[1]
assert not {"rank", "local_rank", "world_size"} & set(heads[None]), heads[None]
PY

# A pattern of the user's with %r: the rank tag where one is set, nothing where not.
run_cc --report-file "$WORK/p/r.%r%p.jsonl" run -- sh -c 'SLURM_PROCID=5 /bin/true'
expect_in "$ERR" "in 2 process reports (rank 5 and 1 process without a rank)" "%r summary"
[ "$(ls "$WORK/p" | grep -c '^r\.rank5\.[0-9]*\.jsonl$')" -eq 1 ] &&
  [ "$(ls "$WORK/p" | grep -c '^r\.[0-9]*\.jsonl$')" -eq 1 ] || fail "%r names: $(ls "$WORK/p")"

finish
