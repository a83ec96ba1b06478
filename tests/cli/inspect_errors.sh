#!/usr/bin/env bash
# cucheck inspect on bad input: usage errors exit 2; each unreadable or corrupt file gives one
# line on stderr, the others are still listed, and the exit status is 1. No toolkit needed.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR.
set -u
BIN=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$BIN" inspect > /dev/null 2>&1; [ $? = 2 ] || bad "no args: exit 2 expected"
"$BIN" inspect --bogus x > /dev/null 2>&1; [ $? = 2 ] || bad "unknown option: exit 2 expected"
"$BIN" inspect --help | grep -q "usage: cucheck inspect" || bad "--help"
# A fatbin header claiming more bytes than the file has.
printf '\x50\xed\x55\xba\x01\x00\x10\x00\xff\xff\x00\x00\x00\x00\x00\x00' > "$T/bad.fatbin"
# An ELF header whose section table lies outside the file.
printf '\x7fELF\x02\x01\x01\x00' > "$T/bad.elf"; head -c 56 /dev/zero >> "$T/bad.elf"
printf '\xff\x00\x00\x00' | dd of="$T/bad.elf" bs=1 seek=40 conv=notrunc 2>/dev/null
printf '\x40\x00\x03\x00' | dd of="$T/bad.elf" bs=1 seek=58 conv=notrunc 2>/dev/null
echo "just text" > "$T/plain.txt"
printf '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n' > "$T/ok.ptx"
"$BIN" inspect "$T/bad.fatbin" "$T/missing" "$T/plain.txt" "$T/ok.ptx" "$T/bad.elf" > "$T/out" 2> "$T/err"
rc=$?
[ $rc = 1 ] || bad "corrupt input: exit 1 expected, got $rc"
[ "$(wc -l < "$T/err")" = 3 ] || { bad "one stderr line per bad file expected:"; cat "$T/err"; }
grep -q "bad.fatbin" "$T/err" && grep -q "missing" "$T/err" && grep -q "bad.elf" "$T/err" || bad "stderr names the files"
grep -q "ok.ptx (ptx)" "$T/out" && grep -q "compute_80" "$T/out" || bad "good file still listed"
grep -q "plain.txt (unknown): no CUDA device code" "$T/out" || bad "plain file reported"
"$BIN" inspect --json "$T/bad.fatbin" "$T/ok.ptx" > "$T/out.json" 2>/dev/null
[ $? = 1 ] || bad "json: exit 1"
if command -v python3 >/dev/null; then
    python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["summary"]["failed"]==1; assert any("error" in f for f in o["files"])' "$T/out.json" || bad "json with errors must stay valid"
fi
# Every seed of the fuzz corpora is handled without a crash (exit 0 or 1, never a signal).
for f in "$SRC"/tests/fuzz/corpus/elf/* "$SRC"/tests/fuzz/corpus/fatbin/*; do
    [ -f "$f" ] || continue
    "$BIN" inspect "$f" > /dev/null 2>&1; rc=$?
    [ $rc -le 1 ] || bad "corpus file $f: exit $rc"
done
exit $fail
