#!/usr/bin/env bash
# cucheck inspect on programs built here with nvcc for several -gencode sets: the entries listed
# (kind, arch incl. a/f variants, compression, PTX ISA) must be exactly those built, kernels must
# carry ptxas's register counts, -lineinfo must show, archives and directories must be walked.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Skips (77) without nvcc.
set -u
BIN=$1
command -v nvcc >/dev/null || { echo "nvcc not found"; exit 77; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cat > "$T/k.cu" <<'CU'
__global__ void __launch_bounds__(256, 4) lb_kernel(float *o, const float *i) {
    __shared__ float t[512]; t[threadIdx.x] = i[threadIdx.x]; __syncthreads();
    o[threadIdx.x] = t[255 - threadIdx.x];
}
extern "C" __global__ void plain_store(int *p, int v) { p[threadIdx.x] = v; }
int main() { return 0; }
CU
# entries KIND ARCH...: the (kind, arch) pairs of the JSON output, sorted, one per line.
entries() { grep -o '"kind": "[a-z]*", "arch": "[a-z_0-9]*"' "$1" | sed 's/"kind": "\([a-z]*\)", "arch": "\([^"]*\)"/\1 \2/' | sort | tr '\n' ' '; }
expect() { # FILE EXPECTED-SORTED-LIST WHAT
    local got; got=$(entries "$1")
    [ "$got" = "$2" ] || bad "$3: entries '$got', expected '$2'"
}
build() { nvcc "$@" || bad "nvcc $*"; }

build -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90 -o "$T/app" "$T/k.cu"
build -gencode arch=compute_90a,code=sm_90a -gencode arch=compute_100f,code=sm_100f -o "$T/app_af" "$T/k.cu"
build -gencode arch=compute_120,code=compute_120 -o "$T/app_ptx" "$T/k.cu"
build -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=compute_90 -Xfatbin=-compress-all -o "$T/app_all" "$T/k.cu"
build -gencode arch=compute_80,code=sm_80 -Xfatbin=-compress-all --compress-mode=speed -o "$T/app_lz4" "$T/k.cu"
build -gencode arch=compute_80,code=sm_80 --compress-mode=none -gencode arch=compute_90,code=compute_90 -o "$T/app_none" "$T/k.cu"
build -cubin -arch=sm_90 -lineinfo -Xptxas -v -o "$T/k90.cubin" "$T/k.cu" 2> "$T/ptxas90.txt"
build -c -gencode arch=compute_80,code=sm_80 -o "$T/k.o" "$T/k.cu"
build -c -rdc=true -gencode arch=compute_86,code=sm_86 -o "$T/k_rdc.o" "$T/k.cu"
ar rcs "$T/libk.a" "$T/k.o" "$T/k_rdc.o" || bad ar
build -ptx -arch=sm_90 -o "$T/k.ptx" "$T/k.cu"
build -fatbin -gencode arch=compute_89,code=sm_89 -gencode arch=compute_89,code=compute_89 -o "$T/k.fatbin" "$T/k.cu"

j() { "$BIN" inspect --json "$@" > "$T/out.json"; echo $?; }
[ "$(j "$T/app")" = 0 ] || bad "inspect app exit"
# nvcc adds a small kernel-less sm_80 image of its own next to each SASS arch built for.
expect "$T/out.json" "ptx compute_90 sass sm_80 sass sm_80 " "app"
grep -q '"ptx_isa": "[0-9]*\.[0-9]*"' "$T/out.json" || bad "app: no ptx_isa"
grep -q '"compression": "zstd"' "$T/out.json" || bad "app: PTX should be zstd-compressed by default"
grep -q '"name": "_Z9lb_kernelPfPKf", "demangled": "lb_kernel(float\*, float const\*)"' "$T/out.json" || bad "app: demangled name"
grep -q '"max_threads": \[256,1,1\]' "$T/out.json" || bad "app: launch bounds"
grep -q '"min_blocks": 4' "$T/out.json" || bad "app: PTX min blocks"
grep -q '"static_shared_bytes": 2048' "$T/out.json" || bad "app: static shared"

[ "$(j "$T/app_af")" = 0 ] || bad "inspect app_af exit"
expect "$T/out.json" "sass sm_100f sass sm_100f sass sm_90a sass sm_90a " "app_af"
[ "$(j "$T/app_ptx")" = 0 ] || bad "inspect app_ptx exit"
expect "$T/out.json" "ptx compute_120 " "app_ptx"
[ "$(j "$T/app_all")" = 0 ] || bad "inspect app_all exit"
[ "$(grep -c '"compression": "zstd"' "$T/out.json")" = 3 ] || bad "app_all: 3 zstd entries expected"
grep -q '"registers": [0-9]' "$T/out.json" || bad "app_all: kernels of compressed cubins not read"
[ "$(j "$T/app_lz4")" = 0 ] || bad "inspect app_lz4 exit"
[ "$(grep -c '"compression": "lz4"' "$T/out.json")" = 2 ] || bad "app_lz4: 2 lz4 entries expected"
grep -q '"name": "plain_store"' "$T/out.json" || bad "app_lz4: kernels of lz4 cubin not read"
[ "$(j "$T/app_none")" = 0 ] || bad "inspect app_none exit"
grep -q '"compression": "zstd"\|"compression": "lz4"' "$T/out.json" && bad "app_none: nothing should be compressed"

# cubin with -lineinfo: registers must equal ptxas -v's.
[ "$(j "$T/k90.cubin")" = 0 ] || bad "inspect cubin exit"
expect "$T/out.json" "sass sm_90 " "cubin"
grep -q '"line_info": true' "$T/out.json" || bad "cubin: line info not seen"
for k in _Z9lb_kernelPfPKf plain_store; do
    want=$(awk -v k="$k" '/Compiling entry function/ {cur = ($0 ~ "\x27" k "\x27")} cur && /Used [0-9]+ registers/ {for (i = 1; i <= NF; i++) if ($i == "Used") print $(i+1)}' "$T/ptxas90.txt")
    got=$(grep -o "\"name\": \"$k\"[^}]*\"registers\": [0-9]*" "$T/out.json" | grep -o '"registers": [0-9]*' | grep -o '[0-9]*$')
    [ -n "$want" ] && [ "$want" = "$got" ] || bad "cubin: $k registers $got, ptxas says $want"
done
[ "$(j "$T/k90.cubin" "$T/app")" = 0 ] && grep -q '"line_info": false' "$T/out.json" || bad "app: line info should be absent"

[ "$(j "$T/libk.a")" = 0 ] || bad "inspect archive exit"
grep -q '"member": "k.o"' "$T/out.json" && grep -q '"member": "k_rdc.o"' "$T/out.json" || bad "archive members"
grep -q '"arch": "sm_86"' "$T/out.json" && grep -q '"relocatable": true' "$T/out.json" || bad "archive: rdc member"
[ "$(j "$T/k.ptx")" = 0 ] || bad "inspect ptx exit"
expect "$T/out.json" "ptx compute_90 " "ptx file"
[ "$(j "$T/k.fatbin")" = 0 ] || bad "inspect fatbin exit"
expect "$T/out.json" "ptx compute_89 sass sm_89 " "fatbin file"

# Directory: only files with device code are listed, the others counted.
mkdir -p "$T/tree/sub" && cp "$T/app" "$T/tree/sub/" && cp "$T/k.cu" "$T/tree/" && echo hi > "$T/tree/readme"
[ "$(j "$T/tree")" = 0 ] || bad "inspect dir exit"
[ "$(grep -c '"path":' "$T/out.json")" = 1 ] || bad "dir: exactly one file listed"
grep -q '"with_device_code": 1, "without_device_code": 2' "$T/out.json" || bad "dir: counts"
"$BIN" inspect "$T/tree" > "$T/out.txt" || bad "text dir exit"
grep -q "sub/app (elf)" "$T/out.txt" && grep -q "3 file(s): 1 with device code, 2 without, 0 failed" "$T/out.txt" || bad "dir text"
exit $fail
