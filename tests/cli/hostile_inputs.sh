#!/usr/bin/env bash
# Hostile inputs to the commands that read files. Each must give one line on stderr and exit 1,
# within seconds and in bounded memory (every run is limited to 20 s; the decompression bombs
# run under `ulimit -v` of 256 MiB):
#  - inspect/occupancy of the 96-byte fatbin whose zstd frame declares 4 GiB, and of entries
#    claiming 64 MiB from 16 bytes (zstd, LZ4): "cannot expand", nothing allocated;
#  - dump/replay/inspect/occupancy/merge of /dev/zero and of a FIFO nobody writes to: "not a
#    regular file" at once, not a hang or an endless read;
#  - replay of a scenario whose kernel name, file and host frame hold escape sequences: the text
#    report and the profile summary show them as \x1b..., no raw control byte reaches stdout or
#    stderr; its clean twin prints the names as they are;
#  - inspect/dump of a path holding an escape sequence: the path is escaped in output and errors;
#  - merge of traces whose rank is huge, fractional or not a number: one line, exit 1.
# No GPU or toolkit needed. Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR.
set -u
BIN=$1 SRC=$2
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# refused NAME TEXT CMD...: exit 1 (occupancy: 2), exactly one stderr line, holding TEXT.
refused() {
    local name=$1 text=$2 rc want=1
    shift 2
    case "$name" in occupancy*) want=2 ;; esac
    timeout 20 "$@" > "$T/out" 2> "$T/err"; rc=$?
    [ $rc = $want ] || { bad "$name: exit $rc, expected $want ($(head -c 300 "$T/err"))"; return; }
    [ "$(wc -l < "$T/err")" = 1 ] || { bad "$name: not one stderr line:"; cat "$T/err"; return; }
    grep -qF -- "$text" "$T/err" || bad "$name: '$text' expected in: $(cat "$T/err")"
}

# Decompression bombs, with the address space capped: a 4 GiB allocation cannot even be tried.
FB="$SRC/tests/fuzz/corpus/fatbin"
bounded=(bash -c 'ulimit -v 262144 && exec "$@"' bounded)
refused "inspect zstd 4 GiB" "zstd: 16 bytes cannot expand to 4294967296" \
    "${bounded[@]}" "$BIN" inspect "$FB/zstd_declares_4g.fatbin"
[ "$(wc -c < "$FB/zstd_declares_4g.fatbin")" = 96 ] || bad "the zstd seed is not the 96-byte fatbin"
refused "occupancy zstd 4 GiB" "cannot expand to 4294967296" \
    "${bounded[@]}" "$BIN" occupancy --binary "$FB/zstd_declares_4g.fatbin" --arch sm_90 --threads 128
refused "inspect zstd unknown size" "zstd: 16 bytes cannot expand to 67108864" \
    "${bounded[@]}" "$BIN" inspect "$FB/zstd_unknown_size_64m.fatbin"
refused "inspect lz4 64 MiB" "lz4: 16 bytes cannot expand to 67108864" \
    "${bounded[@]}" "$BIN" inspect "$FB/lz4_claims_64m.fatbin"
# Its clean twin: a valid frame at 25,000 : 1 is read (1 MiB of 'Z', no ELF inside).
"${bounded[@]}" "$BIN" inspect "$FB/zstd_rle_1m_valid.fatbin" > "$T/out" 2> "$T/err"
grep -q "zstd 41 -> 1048576 B" "$T/out" && grep -q "not an ELF file" "$T/err" ||
    bad "valid high-ratio zstd entry: $(cat "$T/out" "$T/err")"

# Files that are not regular: read by nobody, refused at once.
mkfifo "$T/fifo"
for input in /dev/zero "$T/fifo"; do
    kind="a character device"; [ "$input" = /dev/zero ] || kind="a FIFO"
    refused "dump $input" "dump: $input: not a regular file ($kind)" "$BIN" dump "$input"
    refused "replay $input" "replay: $input: not a regular file ($kind)" \
        "$BIN" replay --tool memcheck "$input"
    refused "inspect $input" "not a regular file" "$BIN" inspect "$input"
    refused "merge $input" "not a regular file ($kind)" "$BIN" merge "$input"
    timeout 20 "$BIN" occupancy --binary "$input" --arch sm_90 --threads 128 > /dev/null 2> "$T/err"
    rc=$?
    [ $rc = 2 ] && grep -qF "not a regular file ($kind)" "$T/err" ||
        bad "occupancy --binary $input: exit $rc: $(cat "$T/err")"
    timeout 20 "$BIN" doctor --binary "$input" > "$T/out" 2>&1
    rc=$?
    [ $rc -le 1 ] && grep -qF "not a regular file ($kind)" "$T/out" ||
        bad "doctor --binary $input: exit $rc"
done

# Escape sequences in names from a recording: escaped in every text the user sees.
cat > "$T/esc.scn" <<'EOF'
process_start pid=42 argv0="/bin/tr\x1b[2Jain"
host_stack id=a1 frame="main\x1b[2J (x.cu:3)"
alloc mem_kind=device address=a size=4000 callsite=a1
launch name="evil\x1b]0;pwned\x07" grid=4 block=256 stream=legacy launch_id=1 callsite=a1 flags=0x4
device_access_error launch_id=1 kernel="evil\x1b]0;pwned\x07" pc=0x70 file="\x1b[31mk.cu" line=13 block=3,0,0 thread=232,0,0 address=a+4000 size=4 flags=0x2 space=1 violation=1 count=24
api_call tid=42 api=runtime function="cudaLaunch\x9bKernel" start=2000 end=2500 correlation=1
kernel_activity start=3000 end=4000 device=0 context=1 stream=7 correlation=1 name="evil\x1b]0;pwned\x07" grid=1 block=32 registers=40
nvtx_range tid=42 start=1500 end=500000 id=1 name="st\x1b[5mep"
free mem_kind=device address=a
process_exit reason=normal code=0
EOF
sed -e 's/\\x1b\[2J//g; s/\\x1b\]0;pwned\\x07//g; s/\\x1b\[31m//g; s/\\x9b//g; s/\\x1b\[5m//g' \
    "$T/esc.scn" > "$T/clean.scn"
no_control() { # FILE...: 1 if some file holds a control byte other than newline
    ! LC_ALL=C grep -q "[$(printf '\001-\011\013-\037\177')]" "$@" &&
        ! LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$@"
}
for tool in memcheck profile; do
    timeout 20 "$BIN" replay --tool "$tool" "$T/esc.scn" > "$T/out" 2> "$T/err"
    no_control "$T/out" "$T/err" || bad "replay $tool: a control byte reached the terminal"
    LC_ALL=C grep -q "\\\\x9b" "$T/out" "$T/err" || [ $tool = memcheck ] || bad "profile: \\x9b not shown"
    timeout 20 "$BIN" replay --tool "$tool" "$T/clean.scn" > "$T/clean.out" 2> "$T/clean.err"
    ! grep -q '\\x' "$T/clean.out" "$T/clean.err" || bad "replay $tool: clean names escaped"
done
timeout 20 "$BIN" replay --tool memcheck "$T/esc.scn" > "$T/out" 2>&1
grep -qF 'at evil\x1b]0;pwned\x07+0x70 in \x1b[31mk.cu:13' "$T/out" ||
    bad "memcheck text: escaped kernel and file expected: $(cat "$T/out")"
grep -qF 'Host frame: main\x1b[2J (x.cu:3)' "$T/out" || bad "memcheck text: escaped host frame"
timeout 20 "$BIN" replay --tool memcheck "$T/clean.scn" > "$T/out" 2>&1
grep -qF 'at evil+0x70 in k.cu:13' "$T/out" || bad "memcheck text, clean twin: $(cat "$T/out")"
timeout 20 "$BIN" replay --tool profile "$T/esc.scn" > "$T/out" 2>&1
grep -qF 'pid 42 (/bin/tr\x1b[2Jain)' "$T/out" && grep -qF 'st\x1b[5mep' "$T/out" ||
    bad "profile summary: escaped names expected: $(cat "$T/out")"

# A path holding an escape sequence, named on the command line: escaped in listings and errors.
evil="$T/$(printf 'k\033[2J')"
printf '.version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\nret;\n}\n' > "$evil.ptx"
timeout 20 "$BIN" inspect "$evil.ptx" "$evil.missing" > "$T/out" 2> "$T/err"
no_control "$T/out" "$T/err" || bad "inspect: a control byte of a path reached the terminal"
grep -qF 'k\x1b[2J.ptx (ptx)' "$T/out" && grep -qF 'k\x1b[2J.missing: No such file' "$T/err" ||
    bad "inspect: escaped path expected: $(cat "$T/out" "$T/err")"
refused "dump of a missing path" 'k\x1b[2J.missing: No such file' "$BIN" dump "$evil.missing"
no_control "$T/err" || bad "dump: a control byte of a path reached the terminal"

# Trace headers with ranks that are no 32-bit integer; -1 (unknown) is fine.
trace() { # FILE RANK
    printf '{"cucheck":{"format":1,"rank":%s,"base_wall_ns":1000,"has_wall_clock":true},"traceEvents":[\n{"pid":1,"tid":1,"ts":1.000,"ph":"X","name":"k","dur":1}\n]}\n' "$2" > "$1"
}
for rank in 1e300 -1e300 2147483648 2.5 1e999; do
    trace "$T/r.json" "$rank"
    refused "merge rank $rank" "is not a 32-bit integer" "$BIN" merge "$T/r.json"
done
trace "$T/r.json" NaN
refused "merge rank NaN" "bad cucheck trace header" "$BIN" merge "$T/r.json"
trace "$T/r.json" -1
"$BIN" merge "$T/r.json" > /dev/null 2>&1 || bad "merge of rank -1 (unknown) failed"
exit $fail
