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

# Kernel names as the program wrote them: a template kernel whose mangled name is longer than the
# C++ runtime's demangler reads (a lambda, the anonymous namespace, argument packs, literals, a
# function pointer), and kernels of relocatable code with internal linkage, which nvcc names with
# its __nv_static_ prefix (the big one too: its arguments are types of an anonymous namespace).
cat > "$T/names.cu" <<'CU'
namespace { template <typename... T> struct tuple {}; template <int... I> struct seq {}; }
namespace gemm { template <typename A, typename B, int M> struct Config {}; template <typename T, unsigned long N> struct aligned { T v; }; }
using S1 = seq<1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30>;
using S2 = seq<-1,-2,-3,-4,-5,-6,-7,-8,-9,-10,-11,-12,-13,-14,-15,-16,-17,-18,-19,-20,-21,-22,-23,-24,-25,-26,-27,-28,-29,-30>;
using S3 = seq<100,101,102,103,104,105,106,107,108,109,110,111,112,113,114,115,116,117,118,119,120,121,122,123,124,125,126,127,128,129>;
using S4 = seq<1000,1001,1002,1003,1004,1005,1006,1007,1008,1009,1010,1011,1012,1013,1014,1015,1016,1017,1018,1019,1020>;
using S5 = seq<2000,2001,2002,2003,2004,2005,2006,2007,2008,2009,2010,2011,2012,2013,2014,2015,2016,2017,2018,2019,2020>;
using C = gemm::Config<tuple<tuple<S1, S2>, tuple<S2, S3>, tuple<S3, S4>, tuple<S4, S5>>, gemm::aligned<double, 16ul>, 128>;
template <typename Cfg, typename F, typename... R> __global__ void big_kernel(Cfg, F f, float *p, R... r) { f(p); }
static __global__ void static_kernel(float *p) { p[0] = 1; }
namespace { __global__ void anon_kernel(float *p) { p[1] = 2; } }
void host(float *p) {
    big_kernel<<<1, 1>>>(C{}, [] __device__ (float *q) { q[2] = 3; }, p, 1, 2u, (void (*)(float *))nullptr);
    static_kernel<<<1, 1>>>(p);
    anon_kernel<<<1, 1>>>(p);
}
CU
build -cubin -arch=sm_90 -rdc=true --extended-lambda -o "$T/names.cubin" "$T/names.cu"
[ "$(j "$T/names.cubin")" = 0 ] || bad "inspect names.cubin exit"
long=$(grep -o '"name": "[^"]*_Z10big_kernel[^"]*"' "$T/out.json" | sed 's/"name": "[^"]*\(_Z10big.*\)"/\1/')
[ "${#long}" -gt 1024 ] || bad "names: big_kernel's mangled name is ${#long} characters, not over 1024"
grep -q '"demangled": "void big_kernel<gemm::Config<(anonymous namespace)::tuple<(anonymous namespace)::tuple<(anonymous namespace)::seq<1, 2, 3, [^"]*, host(float\*)::{lambda(float\*)#1}, float\*, int, unsigned int, void (\*)(float\*))"' "$T/out.json" ||
    bad "names: big_kernel not demangled in full"
grep -q '"name": "__nv_static_[^"]*_Z13static_kernelPf", "demangled": "static_kernel(float\*)"' "$T/out.json" ||
    bad "names: __nv_static_ kernel not shown as static_kernel(float*)"
grep -q '"demangled": "(anonymous namespace)::anon_kernel(float\*)"' "$T/out.json" ||
    bad "names: anonymous-namespace kernel"
exit $fail
