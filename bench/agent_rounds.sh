#!/usr/bin/env bash
# W1-4's table, round-robin (bench/rounds.sh): each workload natively, under the agent with every
# callback on and each handler returning at once (`cucheck run --track callbacks`, the issue's
# baseline), under `cucheck run` (tracking, host stacks and attribution on, device progress
# marks included), under `cucheck run --progress off` (what the marks cost) and with
# CUDA_LAUNCH_BLOCKING=1. Workloads: vector add, reduction, cuBLAS GEMM, tiny launches, and the
# PyTorch training step (skipped without PyTorch, or with TORCH_STEPS 0). Writes
# OUT_DIR/agent_rounds.md.
# Usage: agent_rounds.sh CUCHECK ROUNDS OUT_DIR [TINY_LAUNCHES] [TORCH_STEPS]
set -u
cc=${1:?usage: agent_rounds.sh CUCHECK ROUNDS OUT_DIR [TINY_LAUNCHES] [TORCH_STEPS]}
rounds=${2:?rounds}
out=${3:?out dir}
tiny=${4:-100000}
steps=${5:-200}
here="$(cd "$(dirname "$0")" && pwd)"
build="$out/build"
mkdir -p "$build"
md="$out/agent_rounds.md"
: >"$md"
command -v nvcc >/dev/null || { echo "agent_rounds.sh: nvcc not found" | tee -a "$md"; exit 2; }
arch="-gencode arch=compute_90,code=[sm_90,compute_90]"
only=${AGENT_ROUNDS_ONLY-vecadd reduce gemm_cublas tiny_launches} # CUDA workloads to run ("": none)
for w in $only; do
    libs=""; [ "$w" = gemm_cublas ] && libs="-lcublas"
    nvcc -O3 -lineinfo $arch -o "$build/$w" "$here/workloads/$w.cu" $libs >"$build/$w.log" 2>&1 ||
        { echo "agent_rounds.sh: building $w failed (see $build/$w.log)" | tee -a "$md"; }
done
# AGENT_ROUNDS_PIN: a prefix for the single-threaded CUDA workloads' commands, e.g. "taskset -c 3"
# (launch-bound timings then move less between runs); not used for the PyTorch step.
pin=${AGENT_ROUNDS_PIN:-}
table() { # key, title, command (the program and its arguments, already quoted), prefix
    local name=$2 prog=$3 pre=${4:-} cfg="$build/$1.cfg"
    printf 'native\t%s %s\n' "$pre" "$prog" >"$cfg"
    printf 'run --track callbacks\t%s %q run --track callbacks -- %s\n' "$pre" "$cc" "$prog" >>"$cfg"
    printf 'run\t%s %q run -- %s\n' "$pre" "$cc" "$prog" >>"$cfg"
    printf 'run --progress off\t%s %q run --progress off -- %s\n' "$pre" "$cc" "$prog" >>"$cfg"
    printf 'CUDA_LAUNCH_BLOCKING=1\tCUDA_LAUNCH_BLOCKING=1 %s %s\n' "$pre" "$prog" >>"$cfg"
    local t; t=$(bash "$here/rounds.sh" "$cfg" "$rounds" 600)
    { echo "### $name ($rounds rounds, ms per iteration; ratio to native)"; echo; echo "$t"; echo
      # the issue's measure: tracking on against every callback on with tracking off
      awk -F'|' '$2 ~ /^ run --track callbacks / {b=$3} $2 ~ /^ run $/ {r=$3}
                 END {if (b+0 > 0 && r+0 > 0) printf "run / run --track callbacks: %.3f\n\n", r/b}' <<<"$t"
    } >>"$md"
}
for w in vecadd reduce gemm_cublas; do
    case " $only " in *" $w "*) ;; *) continue;; esac
    [ -x "$build/$w" ] && table "$w" "$w" "$build/$w" "$pin"
done
case " $only " in *" tiny_launches "*) [ -x "$build/tiny_launches" ] && table tiny "tiny_launches ($tiny launches)" "$build/tiny_launches $tiny" "$pin";; esac
if [ "$steps" = 0 ]; then
    echo "PyTorch step: not run (TORCH_STEPS 0)" >>"$md"
elif python3 -c "import torch; assert torch.cuda.is_available()" 2>/dev/null; then
    table torch "PyTorch training step ($steps steps)" \
        "python3 $here/workloads/transformer_step.py --steps $steps"
else
    echo "PyTorch step: skipped (no PyTorch with CUDA)" >>"$md"
fi
cat "$md"
