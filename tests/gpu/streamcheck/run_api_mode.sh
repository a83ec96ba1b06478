#!/usr/bin/env bash
# streamcheck --mode api on a GPU (W1-6, first step): the agent infers each launch's access set
# from its pointer arguments (src/agent/tools/streamcheck/access_infer.c). Builds cucheck and the agent, compiles
# the stream examples, runs each under `cucheck streamcheck --mode api` and checks the verdict
# with tests/gpu/findings.py. Also shows that other tools are unaffected (run tool, clean twin).
# usage (repository root, GPU machine): bash tests/gpu/streamcheck/run_api_mode.sh
# Results (reports, logs, event dumps, verdict table) go to $OUT. Exit 0 when every verdict is
# as expected (PyTorch cases are skipped without torch).
set -u
OUT="${OUT:-/tmp/sc-api-out}"
B="${CUCHECK_BUILD:-/tmp/sc-api-build}"
W=/tmp/sc-api-work
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
# check NAME KIND KERNEL PROGRAM...: KIND 'none' = clean; KERNEL a substring or '-'
check() {
  local name=$1 kind=$2 kernel=$3; shift 3
  local rep="$OUT/$name.json"
  rm -f "$rep" "$OUT/$name.cuevt"*
  "$CC" --record "$OUT/$name.cuevt" --format json --output "$rep" streamcheck --mode api -- "$@" \
    > "$OUT/$name.log" 2>&1
  local rc=$?
  for f in "$OUT/$name.cuevt"*; do "$CC" dump "$f"; done > "$OUT/$name.scn" 2>&1
  local nacc; nacc=$(grep -c '^access' "$OUT/$name.scn" 2>/dev/null); nacc=${nacc:-0}
  local verdict
  verdict=$(python3 tests/gpu/findings.py "$rep" "$kind" "$kernel" - 2>&1)
  local ok=$?
  [ $ok -eq 0 ] || fail=1
  printf '| %s | expect %s | cucheck exit %s | %s access events | %s |\n' \
    "$name" "$kind" "$rc" "$nacc" "$verdict" | tee -a "$OUT/verdicts.md"
}
: > "$OUT/verdicts.md"
check stream_race 'race|stream-race' consume "$W/stream_race"
check stream_ok none - "$W/stream_ok"
if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  check torch_stream_race 'race|stream-race' - python3 examples/torch_stream_race.py
  # Must stay clean: the script orders both directions with wait_stream.
  check torch_stream_ok none - python3 examples/torch_stream_ok.py
else
  echo "| torch_* | skipped: no torch with CUDA |" | tee -a "$OUT/verdicts.md"
fi
# Other tools must not see inferred access events (the agent infers only for streamcheck).
"$CC" --record "$OUT/run_tool.cuevt" run -- "$W/stream_ok" > "$OUT/run_tool.log" 2>&1
for f in "$OUT/run_tool.cuevt"*; do "$CC" dump "$f"; done > "$OUT/run_tool.scn" 2>&1
if grep -q '^access' "$OUT/run_tool.scn"; then
  echo "| run tool | FAIL: access events outside streamcheck |" | tee -a "$OUT/verdicts.md"; fail=1
else
  echo "| run tool | ok: no access events |" | tee -a "$OUT/verdicts.md"
fi
echo "streamcheck api-mode GPU checks: $([ $fail -eq 0 ] && echo PASS || echo FAIL)"
exit $fail
