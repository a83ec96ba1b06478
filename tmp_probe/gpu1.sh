#!/usr/bin/env bash
# scratch: first GPU batch of the session
set -u
export NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
rm -rf build-w14
OUT=$OUT/f timeout 330 bash tests/gpu/lead_batch.sh memcheck
export LD_LIBRARY_PATH=/tmp/dwroot/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
OUT=$OUT/a timeout 150 bash tests/gpu/attribution/device_session.sh attr
cat $OUT/a/attribution.md | head -40
cc=$PWD/build-w14/cucheck
for p in attr_four_streams attr_graph attr_queued attr_oob; do
  echo "=== $p"; CUCHECK_VERBOSE=1 timeout 60 $cc run -- /tmp/attr/bin/$p 2>&1 | grep -v "^cucheck: agent\b" | grep -i "progress\|surfaced\|Faulting\|Candidate\|Graph launch" | head -12
done
nvcc -O3 -gencode arch=compute_90,code=sm_90 -o /tmp/tiny bench/workloads/tiny_launches.cu 2>/dev/null
for m in "run --track callbacks" "run --progress off" "run"; do
  for r in 1 2; do echo "tiny 100k [$m] $(timeout 60 $cc $m -- /tmp/tiny 100000 2>/dev/null | grep BENCH_TIME_MS)"; done
done
echo "tiny native $(/tmp/tiny 100000 | grep BENCH_TIME_MS)"
