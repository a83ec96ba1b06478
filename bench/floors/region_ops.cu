// What one warp's work on its block's state in global memory costs at each barrier (the choice
// synccheck's and racecheck's device state depend on): blocks of THREADS threads run 64
// barriers each; before each one, every warp's first lane does one of the operations below on
// its warp's 64-byte record (and its next warp's, cyclically). Prints the time per launch of
// each operation at 256 and 1,024 threads per block; compare each with "none". Results:
// bench/results/h200-2026-11-26-s5.md.
// Build: nvcc -O2 -arch=native -o region_ops region_ops.cu
// Usage: region_ops
#include <cstdint>
#include <cstdio>

#define BARRIERS 64
#define OPS 13

static __device__ __forceinline__ unsigned long long ld_cta(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.relaxed.cta.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ unsigned long long ld_weak(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ unsigned long long ld_ca(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.global.ca.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ unsigned long long ld_volatile(const unsigned long long *p)
{
    unsigned long long v;
    asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

static __device__ __forceinline__ void st_cta(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.relaxed.cta.global.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

static __device__ __forceinline__ void st_weak(unsigned long long *p, unsigned long long v)
{
    asm volatile("st.global.u64 [%0], %1;" : : "l"(p), "l"(v) : "memory");
}

static const char *const op_names[OPS] = {
    "none",
    "atomic add, result used",
    "three dependent round trips (atomic add, atomic max, volatile load)",
    "block-scope load of its own word",
    "block-scope load and store of its own word",
    "load own word, store it and a slot, then load the next warp's slot",
    "five block-scope loads at once (own and next warp's), then two stores",
    "weak load and store of its own word",
    "volatile load and weak store of its own word",
    "cached load of the next warp's slot, store of its own",
    "block-scope load of the next warp's slot, store of its own",
    "block fence, then atomic add with result",
    "atomic add, result unused (a reduction)",
};

__global__ void barriers(int op, unsigned long long *state, unsigned long long *sink)
{
    unsigned warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5, lane = threadIdx.x & 31;
    unsigned long long *block = state + (size_t)blockIdx.x * 32 * 8; // 64 bytes per warp
    unsigned long long *w = block + warp * 8, *next = block + ((warp + 1) % nwarps) * 8;
    unsigned long long acc = 0;
    for (int i = 0; i < BARRIERS; i++) {
        if (lane == 0) {
            unsigned long long v, a, b, c, d;
            switch (op) {
            case 1: acc += atomicAdd(w, 1ull); break;
            case 2:
                acc += atomicAdd(w, 1ull);
                acc += atomicMax(block + 255, acc);
                acc += ld_volatile(block + 254);
                break;
            case 3: acc += ld_cta(w); break;
            case 4: v = ld_cta(w); st_cta(w, v + 1); acc += v; break;
            case 5:
                v = ld_cta(w);
                st_cta(w, v + 1);
                st_cta(w + 5 + (i & 1), v);
                acc += v + ld_cta(next + 5 + (i & 1));
                break;
            case 6:
                v = ld_cta(w), a = ld_cta(w + 5), b = ld_cta(w + 6);
                c = ld_cta(next + 5), d = ld_cta(next + 6);
                st_cta(w, v + 1);
                st_cta(w + 5 + (i & 1), v);
                acc += v + a + b + c + d;
                break;
            case 7: v = ld_weak(w); st_weak(w, v + 1); acc += v; break;
            case 8: v = ld_volatile(w); st_weak(w, v + 1); acc += v; break;
            case 9: v = ld_ca(next + 5 + (i & 1)); acc += v; st_cta(w + 5 + ((i + 1) & 1), v + 1); break;
            case 10: acc += ld_cta(next + 5 + (i & 1)); st_cta(w + 5 + ((i + 1) & 1), acc); break;
            case 11: __threadfence_block(); acc += atomicAdd(w, 1ull); break;
            case 12: atomicAdd(w, 1ull); break;
            default: break;
            }
        }
        __syncthreads();
    }
    if (acc == 12345)
        sink[0] = acc; // keeps the loads
}

int main(void)
{
    const int threads_at_256 = 65536; // blocks of 256 threads; fewer blocks for larger ones
    unsigned long long *state, *sink;
    size_t bytes = (size_t)threads_at_256 * 32 * 64;
    if (cudaMalloc(&state, bytes) != cudaSuccess || cudaMalloc(&sink, 8) != cudaSuccess) {
        fprintf(stderr, "region_ops: no device memory\n");
        return 1;
    }
    cudaMemset(state, 0, bytes);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    for (int threads = 256; threads <= 1024; threads *= 4) {
        int blocks = threads_at_256 * 256 / threads;
        for (int op = 0; op < OPS; op++) {
            barriers<<<blocks, threads>>>(op, state, sink); // warm-up
            cudaEventRecord(start);
            for (int r = 0; r < 3; r++)
                barriers<<<blocks, threads>>>(op, state, sink);
            cudaEventRecord(stop);
            cudaEventSynchronize(stop);
            float ms = 0.0f;
            cudaEventElapsedTime(&ms, start, stop);
            printf("%4d threads, %d blocks: %8.3f ms per launch: %s\n", threads, blocks, ms / 3,
                   op_names[op]);
        }
    }
    cudaError_t e = cudaGetLastError();
    if (e != cudaSuccess) {
        fprintf(stderr, "region_ops: %s\n", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}
