#!/usr/bin/env bash
# GPU check of the pytest plugin (python/cucheck/pytest_plugin.py), for the lead to run on a
# machine with a GPU, PyTorch, Triton and pytest:
#   bash tests/gpu/pytest/run.sh [CUCHECK] [OUTDIR]   (defaults: build/cucheck, $OUT or /tmp)
#   PLUGIN=installed PYTHON=VENV/bin/python bash tests/gpu/pytest/run.sh   (the installed package)
# `pytest --cucheck memcheck` over test_planted.py (the plugin from this checkout: PYTHONPATH and
# -p; PLUGIN=installed: the installed package's, loaded by its pytest11 entry point, as in a fresh
# venv with `pip install .`): test_overrun must fail with
# memcheck's invalid-global-write at scale_kernel naming the test, test_overrun_clean must pass,
# pytest's exit status must be 1; natively both pass. Exit 77 (skipped) without a GPU, torch,
# triton or pytest; 0 when every check passed, 1 otherwise.
set -u
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
CUCHECK="${1:-$root/build/cucheck}"
OUTDIR="${2:-${OUT:-/tmp}/pytest_plugin}"
PY="${PYTHON:-python3}"
mkdir -p "$OUTDIR"
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L >/dev/null 2>&1; then
  echo "skipped: no GPU (nvidia-smi -L fails)"; exit 77
fi
for mod in pytest torch triton; do
  if ! "$PY" -c "import $mod" 2>/dev/null; then echo "skipped: $PY cannot import $mod"; exit 77; fi
done
if ! "$PY" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)'; then
  echo "skipped: torch sees no CUDA device"; exit 77
fi
# PLUGIN=installed with no CUCHECK argument: the package's own executable
if [ "${PLUGIN:-checkout}" = installed ] && [ $# -eq 0 ]; then
  bin=()
else
  CUCHECK="$(cd "$(dirname "$CUCHECK")" && pwd)/$(basename "$CUCHECK")"
  bin=(--cucheck-bin "$CUCHECK")
fi
status=0
pass() { echo "PASS: $*"; }
fail() { echo "FAIL: $*"; status=1; }
if [ "${PLUGIN:-checkout}" = installed ]; then
  plugin=()
else
  export PYTHONPATH="$root/python${PYTHONPATH:+:$PYTHONPATH}"
  plugin=(-p no:cucheck -p cucheck.pytest_plugin) # an installed package's entry point kept out
fi
cd "$here" || exit 1
pytest_args=("${plugin[@]}" -p no:cacheprovider --rootdir "$here" -rA test_planted.py)

"$PY" -m pytest "${pytest_args[@]}" >"$OUTDIR/native.txt" 2>&1
rc=$?
[ $rc -eq 0 ] && pass "natively both tests pass" || fail "natively: exit $rc (see native.txt)"

"$PY" -m pytest --cucheck memcheck "${bin[@]}" "${pytest_args[@]}" \
  >"$OUTDIR/memcheck.txt" 2>&1
rc=$?
out="$OUTDIR/memcheck.txt"
[ $rc -eq 1 ] && pass "pytest --cucheck memcheck exits 1" || fail "pytest --cucheck memcheck exits $rc (see memcheck.txt)"
grep -q "^FAILED test_planted.py::test_overrun - cucheck: " "$out" \
  && pass "test_overrun fails with cucheck's finding" || fail "test_overrun does not fail with a finding"
grep -q "^PASSED test_planted.py::test_overrun_clean" "$out" \
  && pass "test_overrun_clean passes" || fail "test_overrun_clean does not pass"
grep -Eq "Invalid __global__ write of size [0-9]+ bytes? \[invalid-global-write\]" "$out" \
  && grep -q "at scale_kernel" "$out" \
  && pass "the finding is memcheck's invalid-global-write in scale_kernel" \
  || fail "no invalid-global-write in scale_kernel"
grep -q "=========     In test: test_planted.py::test_overrun$" "$out" \
  && pass "cucheck's report names test_overrun" || fail "cucheck's report does not name test_overrun"
if grep -q "In test: test_planted.py::test_overrun_clean" "$out"; then
  fail "a finding names the clean twin"
else
  pass "no finding names the clean twin"
fi

"$PY" -m pytest --cucheck "memcheck --mode full" "${bin[@]}" "${pytest_args[@]}" \
  >"$OUTDIR/memcheck_full.txt" 2>&1
rc=$?
[ $rc -eq 1 ] && grep -q "^FAILED test_planted.py::test_overrun - cucheck: " "$OUTDIR/memcheck_full.txt" \
  && grep -q "^PASSED test_planted.py::test_overrun_clean" "$OUTDIR/memcheck_full.txt" \
  && pass "--cucheck \"memcheck --mode full\": the same verdicts" \
  || fail "--cucheck \"memcheck --mode full\": exit $rc (see memcheck_full.txt)"
exit $status
