#!/usr/bin/env bash
# The PyTorch benchmark set without PyTorch or a GPU: every workload script compiles
# (py_compile), prints BENCH_SKIPPED and exits 0 when torch cannot be imported (a torch package
# that raises ImportError is put first on PYTHONPATH, so that this holds where torch is installed
# too), and hf_step.py says "transformers is not installed" when torch imports but transformers
# does not; bench/torch_set.sh passes bash -n, skips with "no GPU: skipped" and exit 0 when
# nvidia-smi finds no GPU (a stand-in that fails is put first on PATH), refuses bad use with exit
# 2, and its dry run writes the configurations the set promises (the CUPTI floor included);
# TORCH_SET_CONFIGS keeps native and the configurations it matches.
source "$(dirname "$0")/data/common.bash"

py=python3
export PYTHONDONTWRITEBYTECODE=1 # nothing written into the source tree
command -v "$py" >/dev/null || { echo "skipped: no python3"; exit 77; }
bench="$SOURCE_DIR/bench"
set_sh="$bench/torch_set.sh"
workloads="transformer_step cnn_step hf_step compiled_step tiny_kernels_step"

# A torch that cannot be imported, and a torch that can (empty) beside a transformers that cannot.
mkdir -p "$WORK/notorch/torch" "$WORK/fake/torch" "$WORK/fake/transformers" "$WORK/bin"
echo 'raise ImportError("torch hidden by the test")' >"$WORK/notorch/torch/__init__.py"
: >"$WORK/fake/torch/__init__.py"
echo 'raise ModuleNotFoundError("No module named transformers", name="transformers")' \
  >"$WORK/fake/transformers/__init__.py"

for f in torch_bench $workloads; do
  PYTHONPYCACHEPREFIX="$WORK/pyc" "$py" -m py_compile "$bench/workloads/$f.py" >"$OUT" 2>"$ERR"
  RC=$?
  expect_rc 0 "py_compile $f.py"
done
for w in $workloads; do
  PYTHONPATH="$WORK/notorch" "$py" "$bench/workloads/$w.py" --steps 2 --warmup 1 >"$OUT" 2>"$ERR"
  RC=$?
  expect_rc 0 "$w.py without torch"
  expect_in "$OUT" "BENCH_SKIPPED PyTorch is not installed" "$w.py without torch"
  expect_not_in "$OUT" "BENCH_TIME_MS" "$w.py without torch"
done
PYTHONPATH="$WORK/fake" "$py" "$bench/workloads/hf_step.py" --steps 2 >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "hf_step.py without transformers"
expect_in "$OUT" "BENCH_SKIPPED transformers is not installed" "hf_step.py without transformers"
PYTHONPATH="$WORK/notorch" "$py" "$bench/workloads/transformer_step.py" --no-clip >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "transformer_step.py --no-clip"

bash -n "$set_sh" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "bash -n torch_set.sh"

printf '#!/bin/sh\necho "NVIDIA-SMI has failed" >&2\nexit 9\n' >"$WORK/bin/nvidia-smi"
chmod +x "$WORK/bin/nvidia-smi"
PATH="$WORK/bin:$PATH" bash "$set_sh" "$CUCHECK" 1 "$WORK/set" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "torch_set.sh without a GPU"
expect_in "$OUT" "no GPU: skipped" "torch_set.sh without a GPU"

PATH="$WORK/bin:$PATH" bash "$set_sh" "$CUCHECK" 1 >"$OUT" 2>"$ERR"
RC=$?
expect_rc 2 "torch_set.sh without OUT_DIR"
PATH="$WORK/bin:$PATH" bash "$set_sh" "$CUCHECK" 1 "$WORK/set" 200 ten >"$OUT" 2>"$ERR"
RC=$?
expect_rc 2 "torch_set.sh with a step count that is not a number"
TORCH_SET_ONLY=nonesuch PATH="$WORK/bin:$PATH" bash "$set_sh" "$CUCHECK" 1 "$WORK/set" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 2 "torch_set.sh with an unknown workload"

# The dry run: every workload at both step counts, the slow anchors at the smallest only.
TORCH_SET_DRY_RUN=1 TORCH_SET_SLOW=1 PATH="$WORK/bin:$PATH" \
  bash "$set_sh" "$CUCHECK" 1 "$WORK/dry" 1000 200 >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "torch_set.sh dry run"
for w in $workloads; do
  for n in 200 1000; do
    cfg="$WORK/dry/$w.$n.cfg"
    if [ ! -r "$cfg" ]; then fail "dry run: no $w.$n.cfg"; continue; fi
    for label in "native" "cucheck run" "cucheck run --track off" "cucheck streamcheck" \
                 "cucheck streamcheck --mode api" "cucheck memcheck" "cucheck profile" \
                 "CUPTI kernel floor" "torch.profiler" "CUDA_LAUNCH_BLOCKING=1"; do
      grep -q "^$label"$'\t' "$cfg" || fail "dry run: $w.$n.cfg has no '$label' line"
    done
    expect_in "$cfg" "$w.py --steps $n --warmup 1" "dry run: $w at $n steps"
    lines=$(wc -l <"$cfg")
    want=10; [ "$n" = 200 ] && want=12
    [ "$lines" -eq "$want" ] || fail "dry run: $w.$n.cfg has $lines lines, expected $want"
  done
done
expect_in "$WORK/dry/cnn_step.200.cfg" "TORCH_CUDA_SANITIZER=1 (CSAN)"$'\t'"TORCH_CUDA_SANITIZER=1 " \
  "dry run: CSAN at the smallest step count"
expect_in "$WORK/dry/cnn_step.200.cfg" "compute-sanitizer --tool memcheck " \
  "dry run: compute-sanitizer at the smallest step count"
expect_in "$WORK/dry/cnn_step.200.cfg" " run --track off -- " "dry run: the bare subscription"
expect_in "$WORK/dry/cnn_step.1000.cfg" "CUPTI kernel floor"$'\t'"LD_PRELOAD=$WORK/dry/libcupti_kernel_floor.so " \
  "dry run: the CUPTI floor preloaded"
[ -e "$WORK/dry/torch_set.md" ] && fail "dry run: wrote torch_set.md"

# TORCH_SET_CONFIGS keeps native and the configurations it matches; a bad expression is refused.
TORCH_SET_DRY_RUN=1 TORCH_SET_SLOW=1 TORCH_SET_ONLY=cnn_step TORCH_SET_CONFIGS='memcheck|floor' \
  PATH="$WORK/bin:$PATH" bash "$set_sh" "$CUCHECK" 1 "$WORK/some" 1000 200 >"$OUT" 2>"$ERR"
RC=$?
expect_rc 0 "torch_set.sh with TORCH_SET_CONFIGS"
cut -f1 "$WORK/some/cnn_step.1000.cfg" >"$WORK/labels"
expect_in "$WORK/labels" "native" "TORCH_SET_CONFIGS keeps native"
expect_in "$WORK/labels" "cucheck memcheck" "TORCH_SET_CONFIGS keeps a match"
expect_in "$WORK/labels" "CUPTI kernel floor" "TORCH_SET_CONFIGS keeps every match"
expect_not_in "$WORK/labels" "cucheck streamcheck" "TORCH_SET_CONFIGS drops the others"
[ "$(wc -l <"$WORK/some/cnn_step.1000.cfg")" -eq 3 ] || fail "TORCH_SET_CONFIGS: not 3 lines at 1000"
[ "$(wc -l <"$WORK/some/cnn_step.200.cfg")" -eq 4 ] ||
  fail "TORCH_SET_CONFIGS: not 4 lines at 200 (compute-sanitizer memcheck matches too)"
TORCH_SET_DRY_RUN=1 TORCH_SET_CONFIGS='(' PATH="$WORK/bin:$PATH" \
  bash "$set_sh" "$CUCHECK" 1 "$WORK/bad" >"$OUT" 2>"$ERR"
RC=$?
expect_rc 2 "torch_set.sh with a bad TORCH_SET_CONFIGS"
expect_in "$ERR" "is not a regular expression" "the bad TORCH_SET_CONFIGS named"
finish
