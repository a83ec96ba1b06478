#!/usr/bin/env bash
# The main job over the bundled examples: usage: scripts/run-examples.sh BUILD_DIR CUCHECK_BIN
#  - always (CPU parts): checks examples/expected.txt points at BUG-marked lines, runs
#    `cucheck inspect` on each example binary, `cucheck occupancy --binary` on it, and
#    `cucheck replay --tool T` on each examples/scenarios/T/*.scn against its #expect lines;
#  - with a GPU (nvidia-smi -L lists one): runs each example natively and under the cucheck tool
#    named in examples/expected.txt, and checks the finding (kind, kernel, file:line) with
#    tests/gpu/findings.py; without one, lists each of those checks as a row marked
#    "skipped (no GPU)".
# Commands missing from `cucheck --help` are listed as "not yet available in this build"; a tool
# that examples/expected.txt or a scenario names and the help does not list fails. Prints a
# summary table; exits 1 only if something that should work failed, 2 on usage.
set -uo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 BUILD_DIR CUCHECK_BIN" >&2
  exit 2
fi
build="$1"
cucheck="$2"
root="$(cd "$(dirname "$0")/.." && pwd)"
examples="$root/examples"
bin_dir="$build/examples"
expected="$examples/expected.txt"
matcher="$root/tests/gpu/findings.py"
occupancy_arch="${CUCHECK_EXAMPLES_ARCH:-sm_90}"
run_timeout="${CUCHECK_EXAMPLES_TIMEOUT:-600}"

if [ ! -x "$cucheck" ]; then
  echo "run-examples: cucheck binary '$cucheck' does not exist or is not executable" >&2
  exit 2
fi
if [ ! -r "$expected" ]; then
  echo "run-examples: cannot read $expected" >&2
  exit 2
fi

work="$(mktemp -d "${TMPDIR:-/tmp}/cucheck-examples.XXXXXX")"
trap 'rm -rf "$work"' EXIT
failures=0
rows=()

# add_row STEP TARGET RESULT DETAILS; RESULT FAIL counts as a failure.
add_row() {
  rows+=("| $1 | $2 | $3 | $4 |")
  if [ "$3" = FAIL ]; then
    failures=$((failures + 1))
  fi
}

help_text="$("$cucheck" --help 2>&1)"
# has_cmd NAME: the tool or command NAME is listed by `cucheck --help`.
has_cmd() {
  grep -Eq "^[[:space:]]{1,8}$1([[:space:]]|\$)" <<<"$help_text"
}

have_python=0
command -v python3 >/dev/null 2>&1 && have_python=1

with_timeout() {
  if command -v timeout >/dev/null 2>&1; then
    timeout "$run_timeout" "$@"
  else
    "$@"
  fi
}

# matches OUTPUT_FILE KIND KERNEL LOCATION: prints the verdict; status 0 on a match.
matches() {
  if [ $have_python -eq 1 ]; then
    python3 "$matcher" "$@"
    return
  fi
  # Without python3: the kind must appear in the output (or must not, for 'none').
  local kind="$2"
  if [ "$kind" = none ]; then
    if grep -Eq '"severity" *: *"(error|warning)"' "$1"; then
      echo "expected a clean run, found errors"; return 1
    fi
    echo "clean"; return 0
  fi
  if grep -Eq "\"kind\" *: *\"(${kind})\"" "$1"; then
    echo "found $kind (kernel and line not checked without python3)"; return 0
  fi
  echo "expected $kind, not found"; return 1
}

# Rows of examples/expected.txt without comments: example tool kind kernel location exit anchor.
mapfile -t table < <(grep -Ev '^[[:space:]]*(#|$)' "$expected")

if nvidia-smi -L 2>/dev/null | grep -q '^GPU '; then
  gpu=1
  echo "GPU found: running the examples natively and under cucheck"
else
  gpu=0
  echo "no GPU: running the CPU parts only"
fi

# ---- the metadata points at the BUG lines ----
for line in "${table[@]}"; do
  read -r example tool kind kernel location exit_code anchor _ <<<"$line"
  [ "$location" = - ] && continue
  file="${location%:*}"
  lno="${location##*:}"
  if [ ! -r "$examples/$file" ] || ! sed -n "${lno}p" "$examples/$file" | grep -q BUG; then
    add_row metadata "$example" FAIL "$location is not a line with a BUG marker"
  fi
done

# ---- CPU parts: inspect, occupancy, replay ----
binaries=()
for src in "$examples"/*.cu; do
  [ -e "$src" ] || continue
  binaries+=("$(basename "$src" .cu)")
done

if [ ! -d "$bin_dir" ]; then
  if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
    add_row build "$bin_dir" FAIL \
      "examples not built although nvcc exists (configure with -DCUCHECK_BUILD_EXAMPLES=ON)"
  else
    add_row build "$bin_dir" skipped "examples not built: no CUDA compiler"
  fi
  binaries=()
fi

for name in "${binaries[@]}"; do
  bin="$bin_dir/$name"
  if [ ! -x "$bin" ]; then
    add_row build "$name" FAIL "$bin was not built"
    continue
  fi
  if has_cmd inspect; then
    if with_timeout "$cucheck" inspect "$bin" >"$work/$name.inspect" 2>&1; then
      add_row inspect "$name" ok "$(grep -c . "$work/$name.inspect") line(s)"
    else
      add_row inspect "$name" FAIL "$(tail -n 1 "$work/$name.inspect")"
    fi
  else
    add_row inspect "$name" n/a "not yet available in this build"
  fi
  if has_cmd occupancy; then
    if with_timeout "$cucheck" occupancy --binary "$bin" --arch "$occupancy_arch" \
        >"$work/$name.occ" 2>&1; then
      kernel="$(printf '%s\n' "${table[@]}" |
        awk -v n="$name" '$1 == n && $4 != "-" { print $4; exit }')"
      if [ -n "$kernel" ] && ! grep -q "$kernel" "$work/$name.occ"; then
        add_row occupancy "$name" FAIL "output does not name kernel $kernel"
      else
        add_row occupancy "$name" ok "$occupancy_arch${kernel:+, names $kernel}"
      fi
    else
      add_row occupancy "$name" FAIL "$(tail -n 1 "$work/$name.occ")"
    fi
  else
    add_row occupancy "$name" n/a "not yet available in this build"
  fi
done

for scn in "$examples"/scenarios/*/*.scn; do
  [ -e "$scn" ] || continue
  tool="$(basename "$(dirname "$scn")")"
  label="scenarios/$tool/$(basename "$scn")"
  if ! has_cmd replay; then
    add_row replay "$label" n/a "cucheck replay: not yet available in this build"
    continue
  fi
  if ! has_cmd "$tool"; then
    add_row replay "$label" FAIL "cucheck $tool: no such tool in this build"
    continue
  fi
  out="$work/$(basename "$scn").json"
  with_timeout "$cucheck" replay --tool "$tool" --format json "$scn" >"$out" 2>"$out.err"
  rc=$?
  if [ $rc -ne 0 ]; then # 1: the scenario could not be read to its end
    add_row replay "$label" FAIL "exit $rc: $(tail -n 1 "$out.err")"
    continue
  fi
  if grep -q '^#expect-none' "$scn"; then
    verdict="$(matches "$out" none)" && add_row replay "$label" ok "$verdict" \
      || add_row replay "$label" FAIL "$verdict"
  fi
  while read -r _ kind text; do
    verdict="$(matches "$out" "$kind" "${text:--}")" && add_row replay "$label" ok "$verdict" \
      || add_row replay "$label" FAIL "$verdict"
  done < <(grep '^#expect ' "$scn")
done

# ---- GPU parts: the examples natively and under their tools ----

if [ $gpu -eq 1 ]; then
  declare -A native_rc=()
  for line in "${table[@]}"; do
    read -r example tool kind kernel location exit_code anchor _ <<<"$line"
    if [[ "$example" == *.py ]]; then
      if [ $have_python -eq 0 ]; then
        add_row native "$example" n/a "python3 not found"
        continue
      fi
      prog=(python3 "$examples/$example")
    else
      prog=("$bin_dir/$example")
      if [ ! -x "${prog[0]}" ]; then
        add_row native "$example" FAIL "not built"
        continue
      fi
    fi
    if [ -z "${native_rc[$example]+set}" ]; then
      with_timeout "${prog[@]}" >"$work/$example.native" 2>&1
      native_rc[$example]=$?
      if [ "${native_rc[$example]}" -eq "$exit_code" ]; then
        add_row native "$example" ok \
          "exit ${native_rc[$example]}: $(head -n 1 "$work/$example.native")"
      else
        add_row native "$example" FAIL \
          "exit ${native_rc[$example]}, expected $exit_code: $(tail -n 1 "$work/$example.native")"
      fi
    fi
    if ! has_cmd "$tool"; then
      add_row "$tool" "$example" FAIL "cucheck $tool: no such tool in this build"
      continue
    fi
    report="$work/$example.$tool.jsonl"
    with_timeout "$cucheck" --format json --output "$report" "$tool" -- "${prog[@]}" \
      >"$work/$example.$tool.out" 2>&1
    rc=$?
    [ -s "$report" ] || cp "$work/$example.$tool.out" "$report"
    want="$kind"
    [ "$kernel" != - ] && want="$kind in $kernel"
    # 2, 126, 127: cucheck could not run the program (usage, agent or its libraries missing)
    if { [ $rc -eq 2 ] || [ $rc -eq 126 ] || [ $rc -eq 127 ]; } &&
        [ $rc -ne "${native_rc[$example]}" ]; then
      add_row "$tool" "$example" FAIL \
        "cucheck did not run the program (exit $rc): $(tail -n 1 "$work/$example.$tool.out")"
      continue
    fi
    if verdict="$(matches "$report" "$kind" "$kernel" "$location")"; then
      add_row "$tool" "$example" ok "$verdict (exit $rc)"
    else
      add_row "$tool" "$example" FAIL "$verdict (exit $rc; wanted $want)"
    fi
  done
else
  # Without a GPU every check that needs one is listed, marked skipped, so that the table shows
  # what this machine did not check (one row per example and tool).
  declare -A skipped_row=()
  for line in "${table[@]}"; do
    read -r example tool kind kernel _ <<<"$line"
    key="$example $tool"
    [ -n "${skipped_row[$key]+set}" ] && continue
    skipped_row[$key]=1
    want="$kind"
    [ "$kernel" != - ] && want="$kind in $kernel"
    add_row "$tool" "$example" "skipped (no GPU)" "would run \`cucheck $tool -- $example\` and expect $want"
  done
fi

echo
echo "| step | target | result | details |"
echo "|---|---|---|---|"
printf '%s\n' "${rows[@]}"
if [ $failures -gt 0 ]; then
  echo "run-examples: $failures check(s) failed"
  exit 1
fi
echo "run-examples: all available checks passed"
exit 0
