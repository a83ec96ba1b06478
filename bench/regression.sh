#!/usr/bin/env bash
# The overhead regression check, as one batch on a GPU machine: builds cucheck twice with the same
# flags — a baseline commit (taken with `git archive`) and the working tree — builds the CUDA
# workloads, then times vector add, reduction, cuBLAS GEMM, tiny launches and the PyTorch step
# natively and under both builds in every mode (run, run --track off, memcheck, memcheck --mode
# full, streamcheck, streamcheck --mode api, profile), round-robin (bench/regression_runs.py), and
# writes $OUT/regression.md (bench/regression_table.py): medians, ratios and a verdict per workload
# and mode, REGRESSED where current/baseline > 1.03 beyond the rounds' noise. The table is also
# printed; progress goes to $OUT/regression.log, every run to $OUT/regression.json.
#
# Usage: OUT=DIR bash bench/regression.sh [--dry-run] [--baseline COMMIT] [--rounds N] [--budget S]
#   --dry-run       print the plan (builds and every run of a round) and do nothing
#   --baseline C    the baseline commit (default 665337a, or $REGRESSION_BASELINE)
#   --rounds N      rounds (default 3, or $REGRESSION_ROUNDS)
#   --budget S      seconds for the whole batch, builds included (default 470, or
#                   $REGRESSION_BUDGET_S); a round starts only if it still fits
# Environment:
#   REGRESSION_BASELINE_SRC  the baseline's source as a directory or a tar(.gz) file, for a machine
#                            where `git archive` cannot be used (default:
#                            build-regression/COMMIT.tar.gz when it exists, made elsewhere with
#                            `git archive -o build-regression/665337a.tar.gz 665337a`)
#   REGRESSION_WORKLOADS     workloads to run (default: vecadd reduce gemm_cublas tiny_launches
#                            transformer_step)
#   REGRESSION_MODES         comma-separated modes (default: all seven)
#   REGRESSION_TORCH_STEPS, REGRESSION_TORCH_WARMUP  the PyTorch step's steps (60, 5)
#   REGRESSION_TINY          launches of tiny_launches (10000)
#   REGRESSION_BUILD_TYPE    CMAKE_BUILD_TYPE of both builds (Release)
#   REGRESSION_JOBS          parallel jobs of each build (16)
#   REGRESSION_WORK          scratch folder (/tmp/cucheck-regression; kept builds are reused)
# Exit status: 0 no regression, 1 a REGRESSED verdict or a run that failed only under the
# current build, 2 nothing compared (no GPU, a build failed, no baseline).
set -u
start=$SECONDS
root="$(cd "$(dirname "$0")/.." && pwd)"
here="$root/bench"
dry=0
baseline="${REGRESSION_BASELINE:-665337a}"
rounds="${REGRESSION_ROUNDS:-3}"
budget="${REGRESSION_BUDGET_S:-470}"
usage="usage: OUT=DIR bash bench/regression.sh [--dry-run] [--baseline COMMIT] [--rounds N]"
usage="$usage [--budget S]"
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) dry=1;;
        --baseline) baseline="${2:?$usage}"; shift;;
        --rounds) rounds="${2:?$usage}"; shift;;
        --budget) budget="${2:?$usage}"; shift;;
        -h|--help) echo "$usage"; exit 0;;
        *) echo "regression.sh: unknown argument '$1'" >&2; echo "$usage" >&2; exit 2;;
    esac
    shift
done
case "$rounds:$budget" in
    *[!0-9:]*|:*|*:|0:*)
        echo "regression.sh: --rounds and --budget take whole numbers (rounds: 1 or more)" >&2
        exit 2;;
esac
out="${OUT:-/tmp/cucheck-regression-out}"
work="${REGRESSION_WORK:-/tmp/cucheck-regression}"
build_type="${REGRESSION_BUILD_TYPE:-Release}"
jobs="${REGRESSION_JOBS:-16}"
workloads="${REGRESSION_WORKLOADS:-vecadd reduce gemm_cublas tiny_launches transformer_step}"
base_src="$work/base-src"
base_build="$work/base-build"
cur_build="$work/current-build"
bin_dir="$work/workloads"
# -Werror is on in the baseline's CMakeLists; gcc 12 warns on format truncation at -O3 there.
# The same flags go to both builds (warnings change no code).
cflags="-Wno-error=format-truncation -Wno-error=stringop-truncation"
cmake_common=(-DCMAKE_BUILD_TYPE="$build_type" -DCUCHECK_BUILD_EXAMPLES=OFF -DCUCHECK_PATCH_SMS=90
              "-DCMAKE_C_FLAGS=$cflags")

git_() { git -c safe.directory='*' -C "$root" "$@"; }
say() { echo "regression.sh: $*"; [ "$dry" = 1 ] || echo "$*" >>"$out/regression.log"; }

# The Compute Sanitizer API: the toolkit's, else the wheel scripts/setup-deps.sh unpacked into the
# working tree's .deps/ (a baseline extracted elsewhere would not find that one by itself).
sanitizer_root=""
if [ ! -e /usr/local/cuda/compute-sanitizer/include/sanitizer.h ] &&
   [ ! -e /usr/local/cuda/compute-sanitizer/sanitizer.h ]; then
    h="$(find "$root/.deps/" -name sanitizer.h -path '*/include/*' 2>/dev/null | sort -r | head -1)"
    [ -n "$h" ] && sanitizer_root="$(dirname "$(dirname "$h")")"
fi
[ -n "$sanitizer_root" ] && cmake_common+=("-DComputeSanitizer_ROOT=$sanitizer_root")

run_args=(--rounds "$rounds" --bin-dir "$bin_dir" --cwd "$work/cwd"
          --torch-steps "${REGRESSION_TORCH_STEPS:-60}"
          --torch-warmup "${REGRESSION_TORCH_WARMUP:-5}" --tiny "${REGRESSION_TINY:-10000}")
[ -n "${REGRESSION_MODES:-}" ] && run_args+=(--modes "$REGRESSION_MODES")
cuda_workloads() { # the .cu workloads asked for
    local w
    for w in vecadd reduce gemm_cublas tiny_launches; do
        case " $workloads " in *" $w "*) echo "$w";; esac
    done
}

if [ "$dry" = 1 ]; then
    echo "plan (budget ${budget} s for everything, builds included):"
    echo "1. baseline source: git archive $baseline | tar -x -C $base_src (else" \
         "${REGRESSION_BASELINE_SRC:-build-regression/$baseline.tar.gz if it exists})"
    echo "2. in parallel:"
    plan_build() { # source, build dir
        echo "   cmake -S $1 -B $2$(printf ' %q' "${cmake_common[@]}") &&" \
             "cmake --build $2 -j $jobs --target cucheck cucheck_agent"
    }
    plan_build "$base_src" "$base_build"
    plan_build "$root" "$cur_build"
    for w in $(cuda_workloads); do
        echo "   nvcc -O3 -lineinfo -g -gencode <the GPU's> -o $bin_dir/$w bench/workloads/$w.cu"
    done
    echo "3. measure (bench/regression_runs.py)," \
         "then $out/regression.md (bench/regression_table.py)"
    only=()
    for w in $workloads; do only+=(--only "$w"); done
    python3 "$here/regression_runs.py" --dry-run --baseline "$base_build/cucheck" \
        --current "$cur_build/cucheck" "${run_args[@]}" "${only[@]}" || exit 2
    exit 0
fi

mkdir -p "$out" "$work" "$bin_dir" "$work/cwd" || exit 2
: >"$out/regression.log"
finish_without_table() { # why: writes it as the table, prints it, exits 2
    { echo "# Overhead regression check: current tree against the baseline"; echo
      echo "**Nothing compared: $1**"; } | tee "$out/regression.md"
    exit 2
}
if ! nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
    finish_without_table "no GPU (nvidia-smi lists none)."
fi
gpu="$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
cap="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d ' .')"
case "$cap" in ''|*[!0-9]*) cap=90;; esac
nvcc="$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)"

# 1. The baseline's source: git archive of the commit, kept across batches by its full hash.
base_note=""
full="$(git_ rev-parse --verify --quiet "$baseline^{commit}" 2>/dev/null)"
if [ -n "$full" ] && [ "$(cat "$base_src/.regression-commit" 2>/dev/null)" = "$full" ]; then
    say "baseline source: $base_src (commit $full, extracted earlier)"
elif [ -n "$full" ] && rm -rf "$base_src" && mkdir -p "$base_src" &&
     git_ archive --format=tar "$full" 2>"$work/git-archive.err" | tar -x -C "$base_src" &&
     [ -f "$base_src/CMakeLists.txt" ]; then
    echo "$full" >"$base_src/.regression-commit"
    say "baseline source: git archive $baseline ($full) -> $base_src"
else
    if [ -z "$full" ]; then
        why="git cannot resolve $baseline here (no git, no .git, or a copy without that commit)"
    else
        why="git archive $baseline did not work here: $(tr '\n' ' ' <"$work/git-archive.err")"
    fi
    src="${REGRESSION_BASELINE_SRC:-}"
    [ -z "$src" ] && [ -f "$root/build-regression/$baseline.tar.gz" ] &&
        src="$root/build-regression/$baseline.tar.gz"
    rm -rf "$base_src"; mkdir -p "$base_src"
    if [ -n "$src" ] && [ -d "$src" ] && cp -a "$src/." "$base_src/"; then
        base_note="$why; baseline from $src"
    elif [ -n "$src" ] && [ -f "$src" ] && tar -xf "$src" -C "$base_src"; then
        base_note="$why; baseline from $src"
    else
        base_note="$why; no REGRESSION_BASELINE_SRC to fall back on: the current build is"
        base_note="$base_note measured against native only"
    fi
    say "baseline source: $base_note"
    [ -f "$base_src/CMakeLists.txt" ] || base_src=""
fi
desc="$(git_ describe --always --dirty 2>/dev/null || echo "unknown")"

# 2. Both builds and the workloads, in parallel.
build_tree() { # source, build dir, log; a build dir of another source is started afresh
    if [ -f "$2/CMakeCache.txt" ] &&
       ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$1" "$2/CMakeCache.txt"; then
        rm -rf "$2"
    fi
    cmake -S "$1" -B "$2" "${cmake_common[@]}" >"$3" 2>&1 &&
        cmake --build "$2" -j "$jobs" --target cucheck cucheck_agent >>"$3" 2>&1
}
say "building (${build_type}, -j $jobs each) ..."
pids=()
if [ -n "$base_src" ]; then
    build_tree "$base_src" "$base_build" "$out/build-baseline.log" & pids+=($!)
fi
build_tree "$root" "$cur_build" "$out/build-current.log" & pids+=($!)
for w in $(cuda_workloads); do
    libs=""; [ "$w" = gemm_cublas ] && libs="-lcublas"
    # shellcheck disable=SC2086 # libs is one flag or none
    "$nvcc" -O3 -lineinfo -g -gencode "arch=compute_$cap,code=[sm_$cap,compute_$cap]" \
        -o "$bin_dir/$w" "$here/workloads/$w.cu" $libs >"$out/nvcc-$w.log" 2>&1 & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
built() { # build dir: cucheck and its agent are there
    [ -x "$1/cucheck" ] && [ -n "$(find "$1" -name libcucheck_agent.so -print -quit 2>/dev/null)" ]
}
libdw() { grep -q 'LIBDW found' "$1" 2>/dev/null && echo "libdw" || echo "no libdw"; }
say "builds done after $((SECONDS - start)) s"
if ! built "$cur_build"; then
    tail -20 "$out/build-current.log"
    finish_without_table "the current tree did not build (see build-current.log)."
fi
base_arg=(--baseline "$base_build/cucheck")
if [ -z "$base_src" ]; then
    base_arg=()
elif ! built "$base_build"; then
    tail -20 "$out/build-baseline.log"
    base_note="${base_note:+$base_note; }the baseline did not build (see build-baseline.log)"
    base_arg=()
fi
only=()
for w in $workloads; do
    case " $(cuda_workloads | tr '\n' ' ') " in
        *" $w "*) [ -x "$bin_dir/$w" ] ||
                      { say "workload $w left out: nvcc failed: $(tail -1 "$out/nvcc-$w.log")"
                        continue; };;
    esac
    only+=(--only "$w")
done
[ "${#only[@]}" -gt 0 ] || finish_without_table "no workload was built."

# 3. Measure until the budget, leaving 15 s for the table.
deadline=$(( $(date +%s) + budget - (SECONDS - start) - 15 ))
meta=(--meta "baseline=$baseline${full:+ ($full)}${base_note:+; $base_note}"
      --meta "current=working tree at $desc"
      --meta "gpu=$gpu (sm_$cap)"
      --meta "build=$build_type, CUCHECK_PATCH_SMS=90, $(libdw "$out/build-baseline.log")\
 (baseline), $(libdw "$out/build-current.log") (current); Compute Sanitizer API:\
 ${sanitizer_root:-from the CUDA toolkit}")
until="$(date -d "@$deadline" +%T 2>/dev/null || echo "$deadline")"
say "measuring: $rounds round(s), until $until at the latest (progress: $out/regression.log)"
python3 "$here/regression_runs.py" --current "$cur_build/cucheck" "${base_arg[@]}" \
    "${run_args[@]}" "${only[@]}" --deadline "$deadline" --json "$out/regression.json" \
    --log "$out/regression.log" "${meta[@]}"
rc=$?
[ "$rc" = 0 ] || say "regression_runs.py exited $rc"
python3 "$here/regression_table.py" "$out/regression.json" --out "$out/regression.md"
status=$?
# The summary again, last: the table's top may scroll out of a captured tail.
say "summary: $(sed -n 3p "$out/regression.md")"
say "done in $((SECONDS - start)) s; files in $out"
[ "${#base_arg[@]}" = 0 ] && exit 2
[ "$rc" = 0 ] || exit 2
exit "$status"
