#!/usr/bin/env bash
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
OUT=$OUT/a timeout 200 bash tests/gpu/attribution/device_session.sh "build attr" >/dev/null 2>&1
grep -E "PASS|FAIL" $OUT/a/attribution.md | cut -c1-300
export LD_LIBRARY_PATH=/tmp/dwroot/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
cc=$PWD/build-w14/cucheck
CUCHECK_VERBOSE=1 timeout 60 $cc run -- /tmp/attr/bin/attr_graph 2>&1 | grep -i "progress\|surfaced\|Faulting\|Candidate\|Graph launch" | head
nvcc -O3 -gencode arch=compute_90,code=sm_90 -o /tmp/tiny bench/workloads/tiny_launches.cu 2>/dev/null
for r in 1 2 3; do
  for m in "callbacks|$cc run --track callbacks --" "fence|$cc run --" "nofence|env CUCHECK_PROGRESS_FENCE=0 $cc run --" "off|$cc run --progress off --" "native|"; do
    echo "tiny r$r ${m%%|*} $(taskset -c 3 timeout 60 ${m#*|} /tmp/tiny 100000 2>/dev/null | grep BENCH_TIME_MS)"
  done
done
AGENT_ROUNDS_PIN="taskset -c 3" AGENT_ROUNDS_ONLY="vecadd reduce gemm_cublas" timeout 330 bash bench/agent_rounds.sh $cc 3 $OUT/r 100000 200 >/dev/null 2>&1
cat $OUT/r/agent_rounds.md
