#!/usr/bin/env bash
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
OUT=$OUT/a timeout 330 bash tests/gpu/attribution/device_session.sh "build attr" >/dev/null 2>&1
cat $OUT/a/summary.txt
grep -E "PASS|FAIL" $OUT/a/attribution.md | cut -c1-260
echo "--- progress on"
grep -E "PASS|FAIL" $OUT/a/attribution_progress.md | cut -c1-260
export LD_LIBRARY_PATH=/tmp/dwroot/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
AGENT_ROUNDS_PIN="taskset -c 3" AGENT_ROUNDS_ONLY="vecadd reduce tiny_launches" timeout 200 bash bench/agent_rounds.sh $PWD/build-w14/cucheck 3 $OUT/r 100000 0 >/dev/null 2>&1
cat $OUT/r/agent_rounds.md
