#!/usr/bin/env bash
# streamcheck --mode api on a GPU (W1-6, first step): the agent infers each launch's access set
# from its pointer arguments (src/agent/tools/streamcheck/access_infer.c). Builds cucheck and the agent, compiles
# the stream examples, runs each under `cucheck streamcheck --mode api` and judges it with
# tests/gpu/verdict.py (cucheck exits 0 as the program does, a process report was collected,
# streamcheck's note names mode api and the launches it ordered, and the findings are exactly
# the case's: a race names both sides; any other error or warning fails). Also shows that other
# tools are unaffected (run tool, clean twin).
# usage (repository root, GPU machine): bash tests/gpu/streamcheck/run_api_mode.sh
# Each cucheck run is killed after $SC_TIMEOUT seconds (default 120): a hang fails its check.
# Results (reports, logs, event dumps, verdict table) go to $OUT. Exit 0 when every verdict is
# as expected (PyTorch cases are skipped, not passed, without torch).
set -u
OUT="${OUT:-/tmp/sc-api-out}"
B="${CUCHECK_BUILD:-/tmp/sc-api-build}"
W="${SC_WORK:-/tmp/sc-api-work}" # the programs built here
mkdir -p "$OUT" "$W"
# CUCHECK=path/to/cucheck reuses a build (its agent next to it); otherwise build one in $B.
if [ -n "${CUCHECK:-}" ]; then
  CC="$CUCHECK"; : > "$OUT/build.txt"
else
  { cmake -S . -B "$B" -DCUCHECK_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build "$B" -j16 --target cucheck cucheck_agent; } > "$OUT/build.txt" 2>&1 ||
    { echo "build failed"; tail -30 "$OUT/build.txt"; exit 1; }
  CC="$B/cucheck"
fi
for p in stream_race stream_ok; do
  nvcc -O2 -lineinfo -Iexamples -o "$W/$p" "examples/$p.cu" >> "$OUT/build.txt" 2>&1 ||
    { echo "nvcc failed for $p"; exit 1; }
done
fail=0
# check NAME EXPECT PROGRAM...: EXPECT 'none' = clean, else the one finding (tests/gpu/findings.py
# Expect), e.g. 'kind=race;kernel=consume;other=produce' (the race's later and earlier sides)
check() {
  local name=$1 kind=$2; shift 2
  local rep="$OUT/$name.json"
  rm -f "$rep" "$OUT/$name.cuevt"*
  timeout -k 5 "${SC_TIMEOUT:-120}" "$CC" --record "$OUT/$name.cuevt" --format json \
    --output "$rep" streamcheck --mode api -- "$@" > "$OUT/$name.log" 2>&1
  local rc=$?
  for f in "$OUT/$name.cuevt"*; do "$CC" dump "$f"; done > "$OUT/$name.scn" 2>&1
  local nacc; nacc=$(grep -c '^access' "$OUT/$name.scn" 2>/dev/null); nacc=${nacc:-0}
  local verdict want=(--expect "$kind")
  [ "$kind" = none ] && want=(--none)
  verdict=$(python3 tests/gpu/verdict.py --report "$rep" --log "$OUT/$name.log" --exit $rc \
            --tool streamcheck --mode api --need launches "${want[@]}" 2>&1)
  local ok=$?
  [ $ok -eq 0 ] || fail=1
  printf '| %s | expect %s | cucheck exit %s | %s access events | %s |\n' \
    "$name" "$kind" "$rc" "$nacc" "$verdict" | tee -a "$OUT/verdicts.md"
}
: > "$OUT/verdicts.md"
check stream_race 'kind=race;kernel=consume;other=produce' "$W/stream_race"
check stream_ok none "$W/stream_ok"
if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  check torch_stream_race 'kind=race;kernel=MulFunctor;other=distribution' \
    python3 examples/torch_stream_race.py
  # Must stay clean: the script orders both directions with wait_stream.
  check torch_stream_ok none python3 examples/torch_stream_ok.py
else
  echo "| torch_* | SKIPPED (not run, not passed): no torch with CUDA |" | tee -a "$OUT/verdicts.md"
fi
# Other tools must not see inferred access events (the agent infers only for streamcheck).
"$CC" --record "$OUT/run_tool.cuevt" --format json --output "$OUT/run_tool.json" run -- \
  "$W/stream_ok" > "$OUT/run_tool.log" 2>&1
rc=$?
for f in "$OUT/run_tool.cuevt"*; do "$CC" dump "$f"; done > "$OUT/run_tool.scn" 2>&1
if ! v=$(python3 tests/gpu/verdict.py --report "$OUT/run_tool.json" --log "$OUT/run_tool.log" \
         --exit $rc --tool run --need launches --none 2>&1); then
  echo "| run tool | $v |" | tee -a "$OUT/verdicts.md"; fail=1
elif grep -q '^access' "$OUT/run_tool.scn"; then
  echo "| run tool | FAIL: access events outside streamcheck |" | tee -a "$OUT/verdicts.md"; fail=1
else
  echo "| run tool | ok: no access events; $v |" | tee -a "$OUT/verdicts.md"
fi
echo "streamcheck api-mode GPU checks: $([ $fail -eq 0 ] && echo PASS || echo FAIL)"
exit $fail
