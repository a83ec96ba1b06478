#!/usr/bin/env bash
# One batch on a GPU machine (for the `run` device tool): build cucheck and its agent, run the
# memcheck GPU tests in both modes, then a short overhead benchmark. Results go to $OUT.
# usage: bash tests/gpu/memcheck/device_run.sh [BENCH_SECONDS] [WORKLOAD...]
set -u
OUT="${OUT:-/tmp/mc-out}"
mkdir -p "$OUT"
secs="${1:-90}"
shift || true
B=/tmp/mc-build
{ cmake -S . -B "$B" -DCUCHECK_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null &&
  cmake --build "$B" -j16 --target cucheck cucheck_agent 2>&1 | grep -E "error|warning" ; } \
  > "$OUT/build.txt" 2>&1
echo "build done: $(ls "$B"/cucheck "$B"/src/agent/libcucheck_agent.so 2>&1)" | tee -a "$OUT/build.txt"
timeout 150 python3 tests/gpu/memcheck/run_memcheck_gpu.py --cucheck "$B/cucheck" \
  --build-dir /tmp/mc-gpu > "$OUT/gpu_tests.md" 2>&1
echo "gpu tests exit $?" >> "$OUT/gpu_tests.md"
tail -40 "$OUT/gpu_tests.md"
for f in /tmp/mc-gpu/*.log; do echo "== $f"; head -30 "$f"; done > "$OUT/logs.txt" 2>&1
# Event streams of a few runs, as text, with the JSON reports: one archive.
mkdir -p /tmp/mc-rec
for p in mc_clean vecadd_oob mc_leak mc_copy_oob; do
  "$B/cucheck" --record /tmp/mc-rec/$p.cuevt memcheck --mode full --leak-check full -- /tmp/mc-gpu/bin/$p \
    > /tmp/mc-rec/$p.out 2>&1
  "$B/cucheck" dump /tmp/mc-rec/$p.cuevt* > /tmp/mc-rec/$p.scn 2>&1
done
tar czf "$OUT/reports.tgz" /tmp/mc-gpu/*.json /tmp/mc-rec/*.scn /tmp/mc-rec/*.out 2>/dev/null
python3 tests/gpu/memcheck/bench_config.py /tmp/mc-bench.json "$@"
timeout "$secs" python3 bench/run_bench.py --config /tmp/mc-bench.json --cucheck "$B/cucheck" \
  --reps "${BENCH_REPS:-1}" --build-dir /tmp/mc-benchbuild --out "$OUT/bench.md" > "$OUT/bench_log.txt" 2>&1
echo "bench exit $?"; cat "$OUT/bench.md" 2>/dev/null
