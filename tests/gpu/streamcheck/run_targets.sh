#!/usr/bin/env bash
# streamcheck on the W1-6 target programs, in --mode api, default and full, on a GPU:
#   cublas_race.cu            fill_a writes A on s1, cublasSgemm on s2 reads A with no wait: race
#   cublas_race.cu -DCC_ORDERED             the twin (event on s1, s2 waits): clean
#   pipeline.cu               H2D (s0) -> scale_chunk (s1) -> D2H (s2), 8 chunks, events: clean
#   pipeline.cu -DCC_DROP_WAIT              s2 skips one wait: race on chunk 5
#   pipeline.cu -DCC_ONE_BUFFER             clean, chunks are slices of one allocation
#   graph.cu                  captured graph (g_produce -> g_consume) on s1, clobber on s2: race
#   graph.cu -DCC_ORDERED                   s2 waits for an event after the graph launch: clean
#   graph.cu -DCC_DISJOINT                  clobber writes another allocation: clean
#   graph.cu -DCC_DESTROY_GRAPH             racy, with the captured graph destroyed after
#                                           instantiation (as PyTorch does): race, no crash
#   graph.cu, CUCHECK_SC_GRAPH_ARGS=0       racy, graph node arguments off: --mode api misses it
#   late_kernel.cu            6,000 launches of a learned reader on s1, then a new writer on s2
#                             with no order: race (after launch-end callbacks were turned off)
#   late_kernel.cu -DCC_ORDERED             s2 waits on an event after the reads: clean
#   nccl_race.cu race         write_grad (stream A) writes grad, an in-place ncclAllReduce on
#                             stream B with no wait: race ncclAllReduce / write_grad
#   nccl_race.cu ok           B waits for an event after write_grad: clean
#   nccl_race.cu read_race    read_grad (A) reads the allreduce's result with no wait: race
#                             read_grad / ncclAllReduce
#   nccl_race.cu read_ok      A waits for an event recorded on B after the allreduce: clean
#   nccl_race.cu group        read_race with the allreduce inside ncclGroupStart/End: race
#                             (the nccl_race cases are skipped, with the reason, when
#                             libnccl.so.2 cannot be loaded)
#   torch_record_stream.py    tensor freed without record_stream, block reused: race
#   torch_record_stream.py, CC_RECORD_STREAM=1  the twin: clean (skipped without torch)
# Each run is judged by tests/gpu/verdict.py: cucheck exits 0 as the program does (no crash, no
# timeout), its summary names a process report, the report parses, streamcheck's note names the
# mode it ran in and the kernel launches it ordered, and the findings are exactly the case's: a
# race names both sides (the later access's kernel, or copy, and the earlier one's); any other
# error or warning fails. Graph cases also check the closing note's count of graph kernel nodes
# with inferred access sets.
# usage (repository root, GPU machine): CUCHECK=build/cucheck bash tests/gpu/streamcheck/run_targets.sh
# CUCHECK=path/to/cucheck reuses a build (its agent next to it); otherwise one is built in
# $CUCHECK_BUILD. SC_TIMEOUT (default 120) bounds each cucheck run: a hang fails its check, not
# the script. SC_ONLY=REGEX runs only the cases whose name matches. Results (reports, logs, event
# dumps, verdicts.md) go to $OUT. Exit 0 when every check passes, 1 on any FAIL, 2 on a build error.
set -u
OUT="${OUT:-/tmp/sc-targets-out}"
B="${CUCHECK_BUILD:-/tmp/sc-targets-build}"
W="${SC_WORK:-/tmp/sc-targets-work}" # the programs built here
T="${SC_TIMEOUT:-120}"
ONLY="${SC_ONLY:-.}"
D=tests/gpu/streamcheck
mkdir -p "$OUT" "$W"
say() { echo "[run_targets] $*"; }

if [ -n "${CUCHECK:-}" ]; then
  CC="$CUCHECK"; : > "$OUT/build.txt"
  say "using cucheck at $CC"
else
  say "building cucheck and the agent in $B"
  { cmake -S . -B "$B" -DCUCHECK_BUILD_EXAMPLES=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null &&
    cmake --build "$B" -j16 --target cucheck cucheck_agent; } > "$OUT/build.txt" 2>&1 ||
    { say "FAIL: build failed"; tail -30 "$OUT/build.txt"; exit 2; }
  CC="$B/cucheck"
fi
[ -x "$CC" ] || { say "FAIL: $CC is not an executable"; exit 2; }

build() { # build OUTPUT SOURCE [nvcc flags...]
  local o=$1 src=$2; shift 2
  say "nvcc -O2 -lineinfo $* -o $W/$o $src"
  timeout 300 nvcc -O2 -lineinfo -I$D "$@" -o "$W/$o" "$src" >> "$OUT/build.txt" 2>&1 ||
    { say "FAIL: nvcc failed for $o"; tail -20 "$OUT/build.txt"; exit 2; }
}
build cublas_race $D/cublas_race.cu -lcublas
build cublas_ok $D/cublas_race.cu -DCC_ORDERED -lcublas
build pipeline_ok $D/pipeline.cu
build pipeline_race $D/pipeline.cu -DCC_DROP_WAIT
build pipeline_onebuf_ok $D/pipeline.cu -DCC_ONE_BUFFER
build graph_race $D/graph.cu
build graph_ok $D/graph.cu -DCC_ORDERED
build graph_disjoint_ok $D/graph.cu -DCC_DISJOINT
build graph_destroyed_race $D/graph.cu -DCC_DESTROY_GRAPH
build late_kernel_race $D/late_kernel.cu
build late_kernel_ok $D/late_kernel.cu -DCC_ORDERED
build nccl_race $D/nccl_race.cu -ldl

fail=0 npass=0 nfail=0
count() { grep -c "$1" "$2" 2>/dev/null || true; }
# check NAME MODE EXPECT EXTRA [VAR=VALUE ...] -- PROGRAM...
#   EXPECT: 'none' = clean, else the findings (tests/gpu/findings.py Expect, several joined by
#   ' + '), e.g. 'kind=race;kernel=consume;other=produce': the race's later side is consume, its
#   earlier ("previous access") side produce.
#   EXTRA: 'graphsets:all' (the note counts N > 0 graph kernel nodes, all with inferred sets),
#   'graphsets:none' (N > 0 nodes, none with a set), or '-'. VAR=VALUE: environment of the run.
check() {
  local name=$1 mode=$2 kind=$3 extra=$4; shift 4
  local envs=()
  while [ $# -gt 0 ] && [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  if ! [[ "$name" =~ $ONLY ]]; then return; fi
  local tag="$name.$mode" rep="$OUT/$name.$mode.json"
  rm -f "$rep" "$OUT/$tag.cuevt"*
  local envdesc=""
  [ ${#envs[@]} -gt 0 ] && envdesc=" (env ${envs[*]})"
  say "run $tag: expect $kind$envdesc"
  local t0; t0=$(date +%s)
  env ${envs[@]+"${envs[@]}"} CUCHECK_VERBOSE=1 timeout -k 5 "$T" "$CC" --record "$OUT/$tag.cuevt" \
    --format json --output "$rep" streamcheck --mode "$mode" -- "$@" > "$OUT/$tag.log" 2>&1
  local rc=$?
  local secs=$(( $(date +%s) - t0 ))
  local verdict ok want=() spec
  while IFS= read -r spec; do want+=(--expect "$spec"); done < <(sed 's/ + /\n/g' <<<"$kind")
  [ "$kind" = none ] && want=(--none)
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    echo "TIMEOUT: killed after $T s" >> "$OUT/$tag.log"
    verdict="TIMEOUT after $T s (a hang: for graph cases try CUCHECK_SC_GRAPH_ARGS=0)"; ok=1
  else
    verdict=$(python3 tests/gpu/verdict.py --report "$rep" --log "$OUT/$tag.log" --exit $rc \
              --tool streamcheck --mode "$mode" --need launches "${want[@]}" 2>&1); ok=$?
  fi
  for f in "$OUT/$tag.cuevt"*; do [ -e "$f" ] && "$CC" dump "$f"; done > "$OUT/$tag.scn" 2>&1
  local ni nl nf
  ni=$(count 'source=instrumented' "$OUT/$tag.scn"); nl=$(count 'source=learned' "$OUT/$tag.scn")
  nf=$(count 'source=inferred' "$OUT/$tag.scn")
  local note; note=$(grep -ho 'streamcheck access sets:[^"]*' "$OUT/$tag.log" "$rep" 2>/dev/null |
                     head -1 | cut -c1-400)
  local xv="-" gn="" gi=""
  if [[ "$note" =~ graph\ kernel\ nodes\ ([0-9,]+):\ ([0-9,]+)\ with ]]; then
    gn=${BASH_REMATCH[1]//,/}; gi=${BASH_REMATCH[2]//,/}
  fi
  case "$extra" in
    graphsets:all)
      if [ -n "$gn" ] && [ "$gn" -gt 0 ] && [ "$gi" = "$gn" ]; then xv="graph nodes $gi/$gn with sets ok"
      else xv="FAIL: graph kernel nodes with inferred sets ${gi:-?}/${gn:-?} (want all, > 0)"; ok=1; fi ;;
    graphsets:none)
      if [ -n "$gn" ] && [ "$gn" -gt 0 ] && [ "$gi" = 0 ]; then xv="graph nodes 0/$gn with sets ok"
      else xv="FAIL: graph kernel nodes with inferred sets ${gi:-?}/${gn:-?} (want 0 of > 0)"; ok=1; fi ;;
  esac
  local pf=PASS
  if [ $ok -ne 0 ]; then pf=FAIL; fail=1; nfail=$((nfail + 1)); else npass=$((npass + 1)); fi
  printf '| %s | %s | %s | %s | %s | exit %s, %ss | %s instrumented, %s learned, %s inferred | %s | %s |\n' \
    "$name" "$mode" "$kind" "$verdict" "$pf" "$rc" "$secs" "${ni:-0}" "${nl:-0}" "${nf:-0}" \
    "$xv" "${note:-no note}" | tee -a "$OUT/verdicts.md"
}

R='kind=race'
{
  echo '| case | mode | expected | verdict | PASS/FAIL | cucheck exit, wall | access events by source | extra check | closing note |'
  echo '|---|---|---|---|---|---|---|---|---|'
} > "$OUT/verdicts.md"
cat "$OUT/verdicts.md"
for mode in api default full; do
  # cuBLAS: the race is named by the custom kernel (the cuBLAS kernel's name varies). In --mode
  # api the GEMM's set is inferred from its parameter buffer (pointers inside a by-value params
  # struct count too). Default and full instrument it, but on sm_90 cuBLAS's GEMM kernels load A
  # through the Tensor Memory Accelerator (cp.async.bulk.tensor with a tensor map), which the
  # Compute Sanitizer API offers no patch for: A's allocation is a pointer argument no patched
  # access touched, so it gets the inferred range (CUCHECK_SC_UNTOUCHED, on by default).
  # The later side is cuBLAS's GEMM kernel: its name varies with the GPU and cuBLAS version,
  # but names a gemm (sm90_xmma_gemm_..., cutlass_..._sgemm_..., ampere_sgemm_...) or is one of
  # Hopper's nvjet kernels.
  # cuBLAS may split the GEMM into two kernels that both read A: the second race is optional.
  check cublas_race $mode "$R;kernel=gemm|Gemm|GEMM|nvjet;other=fill_a + $R;kernel=gemm|Gemm|GEMM|nvjet;other=fill_a;optional" - -- "$W/cublas_race"
  if [ $mode != api ]; then
    # With the untouched-pointer rule switched off the instrumented set lacks A: the known
    # false negative it fixes (expected clean, so that the switch is seen to work).
    check cublas_race_untouched_off_known_fn $mode none - CUCHECK_SC_UNTOUCHED=0 -- "$W/cublas_race"
  fi
  check cublas_ok $mode none - -- "$W/cublas_ok"
  check pipeline_ok $mode none - -- "$W/pipeline_ok"
  # chunk 5's D2H copy (s2) reads d_out[5] while scale_chunk (s1) may still write it
  check pipeline_race $mode "$R;kernel=memcpy;other=scale_chunk" - -- "$W/pipeline_race"
  if [ $mode = api ]; then
    # Known false positive of --mode api: scale_chunk's inferred range runs from its chunk to
    # the end of the one input allocation, over later chunks that s0 copies in unordered with
    # it. Expected here as a race, so that the day it is fixed this check says so.
    # (the later side is the next chunk's H2D copy on s0, the earlier one scale_chunk).
    check pipeline_onebuf_ok_known_fp $mode "$R;kernel=memcpy;other=scale_chunk" - -- \
      "$W/pipeline_onebuf_ok"
  else
    check pipeline_onebuf_ok $mode none - -- "$W/pipeline_onebuf_ok"
  fi
  # Graph kernel nodes are neither instrumented nor learned: in every mode the agent gives them
  # inferred sets from the arguments the driver holds for the node (the closing note counts
  # them: graphsets:all), and --mode full takes inferred sets for graph nodes only.
  # clobber (s2) writes buf, which the graph's nodes g_produce and g_consume use: the races of
  # one clobber launch fold into one finding, whose earlier side is either node.
  check graph_race $mode "$R;kernel=clobber;other=g_produce|g_consume" graphsets:all -- \
    "$W/graph_race"
  # Known false negative: once the captured graph is destroyed (PyTorch does so after
  # instantiating it), the driver no longer gives the node's arguments, so its nodes have no
  # access sets. Expected clean here, so that the day it is fixed this check says so. (--mode
  # api runs on CUPTI, which lists a graph's nodes at its launch: a destroyed graph has none to
  # list, so no node events at all, and the node count is not checked.)
  gs=graphsets:none; [ $mode = api ] && gs=-
  check graph_destroyed_race_known_fn $mode none $gs -- "$W/graph_destroyed_race"
  check graph_ok $mode none graphsets:all -- "$W/graph_ok"
  # A new kernel after 6,000 launches that needed no instrumentation (streamcheck had turned
  # launch-end callbacks off): its first launch gets an inferred set, its second is instrumented.
  check late_kernel_race $mode "$R;kernel=late_writer;other=steady_reader" - -- \
    "$W/late_kernel_race"
  check late_kernel_ok $mode none - -- "$W/late_kernel_ok"
  check graph_disjoint_ok $mode none graphsets:all -- "$W/graph_disjoint_ok"
done
# The switch works, and without node arguments --mode api cannot see the race (a known false
# negative of the switched-off path: the nodes have no access sets).
check graph_race_noargs_known_fn api none graphsets:none CUCHECK_SC_GRAPH_ARGS=0 -- "$W/graph_race"

# NCCL collectives as stream operations (a one-rank communicator on GPU 0): the agent's
# interposer reports ncclAllReduce reading and writing grad on stream B. NCCL's own kernel, if
# a one-rank in-place allreduce launches one, may be a second side (its inferred set names
# grad): optional.
NK='ncclDevKernel|ncclKernel'
if "$W/nccl_race" probe > "$OUT/nccl_probe.log" 2>&1; then
  for mode in api default full; do
    check nccl_race $mode "$R;kernel=ncclAllReduce;other=write_grad + $R;kernel=$NK;other=write_grad;optional" - -- "$W/nccl_race" race
    check nccl_ok $mode none - -- "$W/nccl_race" ok
    check nccl_read_race $mode "$R;kernel=read_grad;other=ncclAllReduce + $R;kernel=read_grad;other=$NK;optional" - -- "$W/nccl_race" read_race
    check nccl_read_ok $mode none - -- "$W/nccl_race" read_ok
    check nccl_group_race $mode "$R;kernel=read_grad;other=ncclAllReduce + $R;kernel=read_grad;other=$NK;optional" - -- "$W/nccl_race" group
  done
else
  echo "| nccl_race | all | - | SKIPPED (not run, not passed): $(tail -1 "$OUT/nccl_probe.log") | - |" |
    tee -a "$OUT/verdicts.md"
fi

if python3 -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
  for mode in api default full; do
    # z.fill_ (default stream) reuses x's block while the side stream's x * 2.0 may read it
    check torch_record_stream_race $mode "$R;kernel=FillFunctor;other=MulFunctor" - -- \
      python3 $D/torch_record_stream.py
    check torch_record_stream_ok $mode none - CC_RECORD_STREAM=1 -- python3 $D/torch_record_stream.py
  done
else
  echo "| torch_record_stream | all | - | SKIPPED (not run, not passed): no torch with CUDA | - |" |
    tee -a "$OUT/verdicts.md"
fi
say "$npass passed, $nfail failed; table in $OUT/verdicts.md"
echo "streamcheck target programs: $([ $fail -eq 0 ] && echo PASS || echo FAIL)" |
  tee -a "$OUT/verdicts.md"
exit $fail
