// GPU check of cucheck's occupancy engine (src/occupancy, C) against the CUDA runtime on a real
// device: cudaOccupancyMaxActiveBlocksPerMultiprocessor and cudaOccupancyMaxPotentialBlockSize
// over >= 10,000 configurations of real compiled kernels (varied __launch_bounds__, register
// pressure, static and dynamic shared memory, carveout). Prints a summary table (and writes it to
// $OUT/occupancy_gpu_summary.txt when OUT is set). Exit 0 only if everything matched.
// Mode "--launch": launches a few kernels once (for ncu_compare.sh) and prints the engine's
// prediction for each as "PRED name threads dyn blocks lim_regs lim_smem lim_warps lim_blocks
// occupancy alloc_smem".
#include <cuda_runtime.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
#include "occupancy/occ_engine.h"
#include "occupancy/occ_presets.h"
}

template <int HEAVY>
__device__ __forceinline__ float body(const float *in, int i, int n)
{
    constexpr int A = HEAVY == 0 ? 1 : HEAVY == 1 ? 24 : 96;
    float acc[A];
#pragma unroll
    for (int j = 0; j < A; j++) acc[j] = in[(i + j * 97) % n];
    for (int it = 0; it < 4; it++) {
#pragma unroll
        for (int j = 0; j < A; j++) acc[j] = acc[j] * acc[(j + 1) % A] + 1.0f;
    }
    float s = 0;
#pragma unroll
    for (int j = 0; j < A; j++) s += acc[j];
    return s;
}

template <int MAXT, int MINB, int SMEM, int HEAVY>
__global__ void __launch_bounds__(MAXT, MINB) kern(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    extern __shared__ float dyn[];
    float v = body<HEAVY>(in, i % n, n);
    constexpr int NS = SMEM > 0 ? SMEM / 4 : 1;
    if (SMEM > 0) {
        __shared__ float st[NS];
        st[threadIdx.x % NS] = v;
        __syncthreads();
        v += st[(threadIdx.x + 1) % NS];
    }
    if (n < 0) v += dyn[threadIdx.x];
    out[i % n] = v;
}

struct KernelRef {
    const void *fn;
    std::string name;
};

#define K(T, B, S, H) {(const void *)kern<T, B, S, H>, "kern<" #T "," #B "," #S "," #H ">"}
#define KH(T, B, S) K(T, B, S, 0), K(T, B, S, 1), K(T, B, S, 2)
#define KS(T, B) KH(T, B, 0), KH(T, B, 4096), KH(T, B, 12288), KH(T, B, 40000)
#define KB(T) KS(T, 1), KS(T, 2), KS(T, 4)
static std::vector<KernelRef> kernels()
{
    return {KB(128), KB(256), KB(512), KB(1024)};
}

static cc_occ_device device_of(const cudaDeviceProp &p)
{
    cc_occ_device d;
    d.major = p.major;
    d.minor = p.minor;
    d.max_threads_per_block = p.maxThreadsPerBlock;
    d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d.regs_per_block = p.regsPerBlock;
    d.regs_per_sm = p.regsPerMultiprocessor;
    d.warp_size = p.warpSize;
    d.smem_per_block = p.sharedMemPerBlock;
    d.smem_per_sm = p.sharedMemPerMultiprocessor;
    d.num_sms = p.multiProcessorCount;
    d.smem_per_block_optin = p.sharedMemPerBlockOptin;
    d.reserved_smem_per_block = p.reservedSharedMemPerBlock;
    return d;
}

static cc_occ_func func_of(const cudaFuncAttributes &a)
{
    cc_occ_func f;
    cc_occ_func_runtime(&f, a.maxThreadsPerBlock, a.numRegs, a.sharedSizeBytes,
                        a.maxDynamicSharedSizeBytes, 49152);
    f.max_dyn_smem = a.maxDynamicSharedSizeBytes; // exactly what the runtime reports
    return f;
}

struct Tally {
    long configs = 0, match = 0, mismatch = 0, runtime_err = 0;
};

static FILE *summary_out;
static void say(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    if (summary_out) {
        va_start(ap, fmt);
        vfprintf(summary_out, fmt, ap);
        va_end(ap);
    }
}

static int launch_mode(const cc_occ_device &d)
{
    std::vector<KernelRef> ks = kernels();
    float *buf;
    cudaMalloc(&buf, 1 << 24);
    struct { int idx, threads; size_t dyn; } runs[] = {
        {0, 128, 0}, {2, 128, 0}, {9, 128, 0}, {40, 256, 0}, {41, 256, 20000}, {80, 512, 0},
        {110, 1024, 0}, {47, 256, 65536}};
    for (auto &r : runs) {
        const KernelRef &k = ks[r.idx];
        cudaFuncAttributes a;
        cudaFuncGetAttributes(&a, k.fn);
        if (r.dyn + a.sharedSizeBytes > 49152)
            cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)r.dyn);
        cudaFuncGetAttributes(&a, k.fn);
        int n = 1 << 20;
        void *args[] = {&buf, &buf, &n};
        cudaLaunchKernel(k.fn, dim3(1024), dim3(r.threads), args, r.dyn, 0);
        cudaDeviceSynchronize();
        cc_occ_func f = func_of(a);
        cc_occ_state s = cc_occ_state_default();
        cc_occ_result res;
        cc_occ_max_active_blocks(&res, &d, &f, &s, r.threads, r.dyn);
        int wpb = (r.threads + 31) / 32;
        printf("PRED %s %d %zu %d %d %d %d %d %.4f %zu\n", k.name.c_str(), r.threads, r.dyn,
               res.blocks_per_sm, res.lim_regs, res.lim_smem, res.lim_warps, res.lim_blocks,
               100.0 * res.blocks_per_sm * wpb / (d.max_threads_per_sm / 32), res.alloc_smem_per_block);
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) { fprintf(stderr, "CUDA error %s\n", cudaGetErrorString(e)); return 1; }
    return 0;
}

int main(int argc, char **argv)
{
    cudaDeviceProp p;
    if (cudaGetDeviceProperties(&p, 0) != cudaSuccess) { fprintf(stderr, "no GPU\n"); return 77; }
    cc_occ_device d = device_of(p);
    if (argc > 1 && !strcmp(argv[1], "--launch")) return launch_mode(d);
    const char *out = getenv("OUT");
    std::string path = out ? std::string(out) + "/occupancy_gpu_summary.txt" : "";
    summary_out = out ? fopen(path.c_str(), "w") : nullptr;

    say("device: %s, CC %d.%d, %d SMs\n", p.name, p.major, p.minor, p.multiProcessorCount);
    char an[16];
    snprintf(an, sizeof an, "sm_%d%d", p.major, p.minor);
    const cc_occ_preset *pre = cc_occ_preset_find(an);
    if (pre) {
        const cc_occ_device &q = pre->dev;
        int same = q.max_threads_per_block == d.max_threads_per_block &&
                   q.max_threads_per_sm == d.max_threads_per_sm && q.regs_per_block == d.regs_per_block &&
                   q.regs_per_sm == d.regs_per_sm && q.smem_per_block == d.smem_per_block &&
                   q.smem_per_sm == d.smem_per_sm && q.smem_per_block_optin == d.smem_per_block_optin &&
                   q.reserved_smem_per_block == d.reserved_smem_per_block;
        say("preset %s limits %s the device's (preset SMs %d, device %d)\n", an,
            same ? "EQUAL" : "DIFFER from", q.num_sms, d.num_sms);
        if (!same) say("  device: thr/SM %d regs/SM %d smem/SM %zu optin %zu reserved %zu\n",
                       d.max_threads_per_sm, d.regs_per_sm, d.smem_per_sm, d.smem_per_block_optin,
                       d.reserved_smem_per_block);
    } else {
        say("no preset for %s\n", an);
    }

    std::vector<KernelRef> ks = kernels();
    const int carveouts[] = {-1, 0, 25, 50, 100};
    const size_t dyns[] = {0, 1024, 8000, 20480, 49152, 65536, 102400, 200000};
    Tally byc[5], pot;
    int shown = 0;
    for (const KernelRef &k : ks) {
        for (int ci = 0; ci < 5; ci++) {
            cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, carveouts[ci]);
            for (size_t dyn : dyns) {
                cudaFuncAttributes a;
                cudaFuncGetAttributes(&a, k.fn);
                int want = (int)(dyn + a.sharedSizeBytes > 49152 ? dyn : 49152 - a.sharedSizeBytes);
                cudaFuncSetAttribute(k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, want);
                cudaGetLastError();
                cudaFuncGetAttributes(&a, k.fn);
                cc_occ_func f = func_of(a);
                cc_occ_state s = cc_occ_state_default();
                s.carveout = carveouts[ci];
                std::vector<int> sizes;
                for (int t = 32; t <= a.maxThreadsPerBlock; t += 32) sizes.push_back(t);
                sizes.push_back(1); sizes.push_back(33); sizes.push_back(100);
                for (int bs : sizes) {
                    int rt = -1;
                    Tally &t = byc[ci];
                    t.configs++;
                    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&rt, k.fn, bs, dyn);
                    cc_occ_result r;
                    cc_occ_status st = cc_occ_max_active_blocks(&r, &d, &f, &s, bs, dyn);
                    if (e != cudaSuccess) { cudaGetLastError(); t.runtime_err++; continue; }
                    if (st == CC_OCC_OK && r.blocks_per_sm == rt) { t.match++; continue; }
                    t.mismatch++;
                    if (shown++ < 40)
                        say("MISMATCH %s bs %d dyn %zu carve %d regs %d static %zu maxdyn %d: runtime %d, "
                            "engine %d (status %d, limits W%d R%d S%d B%d Bar%d)\n",
                            k.name.c_str(), bs, dyn, carveouts[ci], a.numRegs, a.sharedSizeBytes,
                            a.maxDynamicSharedSizeBytes, rt, r.blocks_per_sm, (int)st, r.lim_warps,
                            r.lim_regs, r.lim_smem, r.lim_blocks, r.lim_barriers);
                }
                // block-size search
                int g = 0, b = 0, eg = 0, eb = 0;
                pot.configs++;
                cudaError_t e = cudaOccupancyMaxPotentialBlockSize(&g, &b, k.fn, dyn, 0);
                cc_occ_status st = cc_occ_max_potential_block_size(&eg, &eb, &d, &f, &s, NULL, NULL, dyn);
                if (e != cudaSuccess) { cudaGetLastError(); pot.runtime_err++; }
                else if (st == CC_OCC_OK && g == eg && b == eb) pot.match++;
                else {
                    pot.mismatch++;
                    if (shown++ < 40)
                        say("MISMATCH potential %s dyn %zu carve %d: runtime (%d, %d), engine (%d, %d)\n",
                            k.name.c_str(), dyn, carveouts[ci], b, g, eb, eg);
                }
            }
        }
        cudaFuncSetAttribute(k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, -1);
    }
    long total = 0, bad = 0;
    say("\n%-40s %9s %9s %9s %12s\n", "comparison", "configs", "match", "mismatch", "runtime-err");
    for (int ci = 0; ci < 5; ci++) {
        char label[64];
        snprintf(label, sizeof label, "MaxActiveBlocks, carveout %d", carveouts[ci]);
        say("%-40s %9ld %9ld %9ld %12ld\n", label, byc[ci].configs, byc[ci].match, byc[ci].mismatch,
            byc[ci].runtime_err);
        total += byc[ci].configs;
        bad += byc[ci].mismatch;
    }
    say("%-40s %9ld %9ld %9ld %12ld\n", "MaxPotentialBlockSize", pot.configs, pot.match, pot.mismatch,
        pot.runtime_err);
    say("kernels: %zu real kernels; total MaxActiveBlocks configurations: %ld\n", ks.size(), total);
    say("RESULT: %s\n", bad == 0 && pot.mismatch == 0 && total >= 10000 ? "PASS" : "FAIL");
    if (summary_out) fclose(summary_out);
    return bad == 0 && pot.mismatch == 0 && total >= 10000 ? 0 : 1;
}
