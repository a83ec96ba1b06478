#!/usr/bin/env bash
# The PyTorch benchmark set, round-robin (bench/rounds.sh): five training-step workloads of
# different shapes (bench/workloads: transformer_step.py, the eager transformer LM; cnn_step.py,
# cuDNN convolutions and BatchNorm; hf_step.py, a Hugging Face GPT-2 from a config;
# compiled_step.py, torch.compile with mode="reduce-overhead": Triton kernels in CUDA graphs;
# tiny_kernels_step.py, thousands of small launches per step), each at every step count (default
# 200 and 1000, one warm-up step, so that the checked first launches count; compiled_step takes 3
# for its compilation), each natively, under `cucheck run`, `run --track off` (the bare
# subscription), `streamcheck`, `streamcheck --mode api`, `memcheck` and `profile`, under the
# floor of CUPTI kernel tracing (floors/cupti_kernel_floor.c, preloaded; the row is left out,
# with a line on stderr, where it cannot be built) and under the anchors torch.profiler
# (BENCH_TORCH_PROFILER=1) and CUDA_LAUNCH_BLOCKING=1; with
# TORCH_SET_SLOW=1, at the smallest step count only, also TORCH_CUDA_SANITIZER=1 (CSAN) and
# `compute-sanitizer --tool memcheck`. A workload that prints BENCH_SKIPPED on a one-step probe
# (no transformers, torch.compile failing) gets one line saying why. Appends one table per
# workload and step count (ms per step, ratio to native; BENCH_MEMINFO=1 for every run, so the
# tables carry each configuration's device memory in use and host peak memory, and their excess
# over native: a tool's own memory) to OUT_DIR/torch_set.md.
# Variables: PYTHON (default python3), TORCH_SET_ONLY (workload names, default all five),
# TORCH_SET_CONFIGS (an extended regular expression: only the configurations whose label
# matches run, native always, so that a long set can be split over several runs),
# TORCH_SET_TIMEOUT (seconds per run, default 600), TORCH_SET_SLOW, TORCH_SET_DRY_RUN=1 (write
# and print the configurations, run nothing, need no GPU). Without a GPU: "no GPU: skipped", exit
# 0. Exit status 1 when a run failed, 2 on bad use.
# Usage: torch_set.sh CUCHECK ROUNDS OUT_DIR [STEPS...]
set -u
usage="usage: torch_set.sh CUCHECK ROUNDS OUT_DIR [STEPS...]"
if [ $# -lt 3 ]; then echo "$usage" >&2; exit 2; fi
cc=$1 rounds=$2 out=$3
shift 3
steps=${*:-200 1000}
for n in $rounds $steps; do
    [[ "$n" =~ ^[0-9]+$ ]] || { echo "torch_set.sh: '$n' is not a number; $usage" >&2; exit 2; }
done
here=$(cd "$(dirname "$0")" && pwd)
workloads=${TORCH_SET_ONLY:-transformer_step cnn_step hf_step compiled_step tiny_kernels_step}
for w in $workloads; do
    [ -r "$here/workloads/$w.py" ] || { echo "torch_set.sh: no workload $here/workloads/$w.py" >&2; exit 2; }
done
py=${PYTHON:-python3}
dry=${TORCH_SET_DRY_RUN:-0}
if [ "$dry" != 1 ] && ! nvidia-smi -L >/dev/null 2>&1; then echo "no GPU: skipped"; exit 0; fi
mkdir -p "$out" || exit 2
md="$out/torch_set.md"
smallest=$(tr ' ' '\n' <<<"$steps" | sort -n | head -1)
limit=${TORCH_SET_TIMEOUT:-600}
export BENCH_MEMINFO=1 # the memory columns (bench/rounds.sh)
configs=${TORCH_SET_CONFIGS:-}
if [ -n "$configs" ]; then
    grep -Eq -- "$configs" <<<"" ; [ $? -le 1 ] ||
        { echo "torch_set.sh: TORCH_SET_CONFIGS '$configs' is not a regular expression" >&2; exit 2; }
fi
# The floor of CUPTI kernel tracing, for profile's target (built once; its row is left out
# where it cannot be built).
floor="$out/libcupti_kernel_floor.so"
if [ "$dry" != 1 ] && ! bash "$here/floors/build_cupti_floor.sh" "$floor"; then
    echo "torch_set.sh: no CUPTI floor: its row left out" >&2
    floor=""
fi
if [ "$dry" != 1 ]; then
    if ! "$py" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null; then
        echo "torch_set.sh: $py has no CUDA PyTorch: skipped" | tee -a "$md"; exit 0
    fi
    {
        echo "# torch_set.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $rounds rounds, steps: $steps"
        echo
        echo "$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1);" \
             "$("$py" -c 'import torch; print("torch", torch.__version__, "CUDA", torch.version.cuda)');" \
             "$("$cc" --version 2>&1 | head -1)"
        echo
    } | tee -a "$md"
fi
status=0
for w in $workloads; do
    script="$here/workloads/$w.py"
    if [ "$dry" != 1 ]; then
        probe=$(timeout "$limit" "$py" "$script" --steps 1 --warmup 1 2>&1)
        why=$(sed -n 's/^BENCH_SKIPPED[[:space:]]*//p' <<<"$probe" | head -1)
        if [ -n "$why" ]; then echo "## $w: skipped ($why)" | tee -a "$md"; echo >>"$md"; continue; fi
    fi
    for n in $steps; do
        step="$(printf '%q %q --steps %s --warmup 1' "$py" "$script" "$n")"
        c=$(printf '%q' "$cc")
        cfg="$out/$w.$n.cfg"
        {
            printf 'native\t%s\n' "$step"
            printf 'cucheck run\t%s run -- %s\n' "$c" "$step"
            printf 'cucheck run --track off\t%s run --track off -- %s\n' "$c" "$step"
            printf 'cucheck streamcheck\t%s streamcheck -- %s\n' "$c" "$step"
            printf 'cucheck streamcheck --mode api\t%s streamcheck --mode api -- %s\n' "$c" "$step"
            printf 'cucheck memcheck\t%s memcheck -- %s\n' "$c" "$step"
            printf 'cucheck profile\t%s profile -- %s\n' "$c" "$step"
            if [ -n "$floor" ]; then
                printf 'CUPTI kernel floor\tLD_PRELOAD=%q %s\n' "$floor" "$step"
            fi
            printf 'torch.profiler\tBENCH_TORCH_PROFILER=1 %s\n' "$step"
            printf 'CUDA_LAUNCH_BLOCKING=1\tCUDA_LAUNCH_BLOCKING=1 %s\n' "$step"
            if [ "${TORCH_SET_SLOW:-0}" = 1 ] && [ "$n" = "$smallest" ]; then
                printf 'TORCH_CUDA_SANITIZER=1 (CSAN)\tTORCH_CUDA_SANITIZER=1 %s\n' "$step"
                if [ "$dry" = 1 ] || command -v compute-sanitizer >/dev/null; then
                    printf 'compute-sanitizer memcheck\tcompute-sanitizer --tool memcheck %s\n' "$step"
                else
                    echo "torch_set.sh: compute-sanitizer not found: its row left out" >&2
                fi
            fi
        } >"$cfg"
        if [ -n "$configs" ]; then
            awk -F '\t' -v re="$configs" 'NR == 1 || $1 ~ re' "$cfg" >"$cfg.kept" &&
                mv "$cfg.kept" "$cfg"
        fi
        if [ "$dry" = 1 ]; then echo "## $w, $n steps: $cfg"; cat "$cfg"; continue; fi
        t=$(bash "$here/rounds.sh" "$cfg" "$rounds" "$limit") || status=1
        { echo "## $w, $n steps ($rounds rounds; ms per step, ratio to native)"; echo; echo "$t"; echo
        } | tee -a "$md"
    done
done
exit $status
