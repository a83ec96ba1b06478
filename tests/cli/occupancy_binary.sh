#!/usr/bin/env bash
# cucheck occupancy --binary: kernels compiled here with nvcc; registers, static shared memory and
# stack read from the cubin must equal what ptxas --resource-usage reports, launch bounds must be
# found, and each kernel's occupancy must equal the hand-described configuration's.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Skips (77) without nvcc or python3.
set -u
BIN=$1 SRC=$2
command -v nvcc >/dev/null || { echo "nvcc not found"; exit 77; }
command -v python3 >/dev/null || { echo "python3 needed"; exit 77; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
CU=$SRC/tests/occupancy/occupancy_kernels.cu
fail=0
bad() { echo "FAIL: $*"; fail=1; }

nvcc -cubin -arch=sm_90 --resource-usage -o "$T/k90.cubin" "$CU" 2> "$T/ptxas90.txt" || { bad "nvcc cubin"; exit 1; }
nvcc -fatbin -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 -o "$T/k.fatbin" "$CU" || bad "nvcc fatbin"
nvcc -DOCC_KERNELS_MAIN -gencode arch=compute_80,code=sm_80 -gencode arch=compute_120,code=sm_120 -o "$T/app" "$CU" || bad "nvcc app"

"$BIN" occupancy --binary "$T/k90.cubin" --json > "$T/k90.json" || bad "--binary cubin exit $?"
python3 - "$T/ptxas90.txt" "$T/k90.json" <<'PY' || fail=1
import json, re, sys
ptx = {}
cur = None
for line in open(sys.argv[1]):
    m = re.search(r"Compiling entry function '(\w+)'", line)
    if m: cur = m.group(1); ptx[cur] = {"regs": 0, "smem": 0, "stack": 0}
    m = re.search(r"Used (\d+) registers", line)
    if m and cur: ptx[cur]["regs"] = int(m.group(1))
    m = re.search(r"(\d+) bytes smem", line)
    if m and cur: ptx[cur]["smem"] = int(m.group(1))
    m = re.search(r"(\d+) bytes stack frame", line)
    if m and cur: ptx[cur]["stack"] = int(m.group(1))
o = json.load(open(sys.argv[2]))
ks = {k["kernel"]["name"]: k for k in o["kernels"]}
bad = 0
if set(ks) != set(ptx): print("kernel set", sorted(ks), sorted(ptx)); bad = 1
for name, p in ptx.items():
    k = ks.get(name)
    if not k: continue
    got = (k["kernel"]["registers"], k["kernel"]["smem_static"], k["kernel"]["local_bytes"])
    want = (p["regs"], p["smem"], p["stack"])
    if got != want: print(name, "got", got, "ptxas", want); bad = 1
lb = {"k_lb256_4": 256, "k_lb128": 128, "k_plain": 0, "k_heavy": 0}
for name, mt in lb.items():
    if ks[name]["kernel"]["launch_bounds"]["max_threads"] != mt: print(name, "launch bounds"); bad = 1
if ks["k_lb256_4"]["kernel"]["threads"] != 256: print("threads from launch bounds"); bad = 1
if ks["k_lb256_4"]["kernel"]["registers"] > 64: print("lb(256,4) should cap registers at 64"); bad = 1
if ks["k_smem12k"]["kernel"]["smem_static"] != 12288: print("static smem"); bad = 1
sys.exit(bad)
PY

# Each kernel's occupancy equals the hand-described configuration with the same numbers.
python3 - "$T/k90.json" > "$T/cfgs.txt" <<'PY'
import json, sys
for k in json.load(open(sys.argv[1]))["kernels"]:
    kk = k["kernel"]
    print(kk["name"], kk["threads"], kk["registers"], kk["smem_static"], k["blocks_per_sm"])
PY
while read -r name thr regs smem blocks; do
    b=$("$BIN" occupancy --arch sm_90 --threads "$thr" --regs "$regs" --smem-static "$smem" --json |
        python3 -c 'import json,sys; print(json.load(sys.stdin)["blocks_per_sm"])')
    [ "$b" = "$blocks" ] || bad "$name: binary $blocks blocks, hand config $b"
done < "$T/cfgs.txt"

# --kernel by name and by regex, --threads override, arch selection from a fatbin and an executable
n=$("$BIN" occupancy --binary "$T/k.fatbin" --arch sm_80 --kernel k_plain --json |
    python3 -c 'import json,sys; o=json.load(sys.stdin); print(len(o["kernels"]), o["kernels"][0]["arch"])')
[ "$n" = "1 sm_80" ] || bad "fatbin --arch sm_80 --kernel k_plain: $n"
n=$("$BIN" occupancy --binary "$T/k.fatbin" --arch sm_86 --kernel 'k_lb.*' --threads 128 --json |
    python3 -c 'import json,sys; o=json.load(sys.stdin); print(len(o["kernels"]), {k["kernel"]["threads"] for k in o["kernels"]})')
[ "$n" = "2 {128}" ] || bad "fatbin sm_86 regex: $n"
n=$("$BIN" occupancy --binary "$T/k.fatbin" --json |
    python3 -c 'import json,sys; o=json.load(sys.stdin); print(len(o["kernels"]))')
[ "$n" = "12" ] || bad "fatbin, every cubin on its own arch: $n kernels"
n=$("$BIN" occupancy --binary "$T/app" --arch sm_120 --json |
    python3 -c 'import json,sys; o=json.load(sys.stdin); print(len(o["kernels"]), {k["arch"] for k in o["kernels"]})')
[ "$n" = "6 {'sm_120'}" ] || bad "executable --arch sm_120: $n"
"$BIN" occupancy --binary "$T/app" --kernel k_plain > "$T/text.txt" || bad "text binary"
grep -q "kernel k_plain on sm_80" "$T/text.txt" || bad "text names the kernel"
"$BIN" occupancy --binary "$T/app" --arch sm_90 2>/dev/null; [ $? -eq 2 ] || bad "no SASS for sm_90 should exit 2"
"$BIN" occupancy --binary "$T/app" --kernel nothing_matches 2>/dev/null; [ $? -eq 2 ] || bad "no kernel matched should exit 2"
head -c 100 /dev/urandom > "$T/junk"
"$BIN" occupancy --binary "$T/junk" 2>/dev/null; [ $? -eq 2 ] || bad "junk file should exit 2"
exit $fail
