/* Differential test: cucheck's occupancy engine against the CUDA toolkit's own cuda_occupancy.h
 * (compiled here as C, used only as an oracle) on every preset over random configurations:
 * max active blocks (status, blocks, every block limit, factors, allocations, gc), the block-size
 * search and the available dynamic shared memory. Built only when the toolkit header exists. */
#include <cuda_occupancy.h>

#include <stdio.h>
#include <string.h>

#include "occupancy/occ_engine.h"
#include "occupancy/occ_presets.h"

static unsigned long long rng_state = 0x9e3779b97f4a7c15ull;
static unsigned rnd(unsigned n)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n ? (unsigned)(rng_state % n) : 0;
}

static void to_header_dev(const cc_occ_device *d, cudaOccDeviceProp *p)
{
    memset(p, 0, sizeof *p);
    p->computeMajor = d->major;
    p->computeMinor = d->minor;
    p->maxThreadsPerBlock = d->max_threads_per_block;
    p->maxThreadsPerMultiprocessor = d->max_threads_per_sm;
    p->regsPerBlock = d->regs_per_block;
    p->regsPerMultiprocessor = d->regs_per_sm;
    p->warpSize = d->warp_size;
    p->sharedMemPerBlock = d->smem_per_block;
    p->sharedMemPerMultiprocessor = d->smem_per_sm;
    p->numSms = d->num_sms;
    p->sharedMemPerBlockOptin = d->smem_per_block_optin;
    p->reservedSharedMemPerBlock = d->reserved_smem_per_block;
}

static void to_header_func(const cc_occ_func *f, cudaOccFuncAttributes *a)
{
    memset(a, 0, sizeof *a);
    a->maxThreadsPerBlock = f->max_threads_per_block;
    a->numRegs = f->num_regs;
    a->sharedSizeBytes = f->static_smem;
    a->partitionedGCConfig = (cudaOccPartitionedGCConfig)f->gc;
    a->shmemLimitConfig = (cudaOccFuncShmemConfig)f->smem_limit;
    a->maxDynamicSharedSizeBytes = f->max_dyn_smem;
    a->numBlockBarriers = f->num_barriers;
    a->virtualResourceCount = f->virtual_resources;
}

static size_t pick_smem(size_t max)
{
    switch (rnd(5)) {
    case 0: return 0;
    case 1: return (size_t)rnd((unsigned)max + 1);
    case 2: return (size_t)rnd((unsigned)(max / 1024) + 1) * 1024;
    case 3: return (size_t)rnd(4096);
    default: return (size_t)rnd((unsigned)(max / 128) + 1) * 128;
    }
}

static void random_config(const cc_occ_device *d, cc_occ_func *f, cc_occ_state *s, int *bs,
                          size_t *dyn)
{
    static const int sizes[] = {32, 64, 96, 128, 160, 192, 256, 384, 512, 640, 768, 1024};
    *bs = rnd(3) ? sizes[rnd(12)] : (int)rnd(1100) + (rnd(50) ? 1 : -2);
    f->max_threads_per_block = rnd(8) ? 1024 : (int)rnd(1024) + (rnd(100) ? 1 : -1);
    f->num_regs = rnd(4) ? (int)rnd(256) + 1 : (int)rnd(262) - (rnd(200) ? 0 : 2);
    f->static_smem = rnd(2) ? 0 : pick_smem(49152);
    f->gc = (cc_occ_gc)(rnd(2) ? 0 : rnd(3));
    size_t cap = d->smem_per_block_optin > 49152 ? d->smem_per_block_optin : 49152;
    *dyn = rnd(3) ? pick_smem(cap + 4096) : 0;
    if (rnd(2)) {
        f->smem_limit = CC_OCC_SMEM_LIMIT_DEFAULT;
        f->max_dyn_smem = rnd(3) ? 0 : pick_smem(cap);
        f->num_barriers = rnd(2) ? 0 : (int)rnd(5);
    } else {
        f->smem_limit = CC_OCC_SMEM_LIMIT_OPTIN;
        switch (rnd(4)) {
        case 0: f->max_dyn_smem = f->static_smem < 49152 ? 49152 - f->static_smem : 0; break;
        case 1: f->max_dyn_smem = cap; break;
        case 2: f->max_dyn_smem = *dyn; break;
        default: f->max_dyn_smem = pick_smem(cap); break;
        }
        f->num_barriers = rnd(4) ? 1 : (int)rnd(17);
    }
    f->virtual_resources = rnd(4) ? 0 : (int)rnd(40);
    s->cache = (cc_occ_cache)(rnd(3) ? 0 : rnd(4));
    switch (rnd(6)) {
    case 0: s->carveout = (int)rnd(101); break;
    case 1: s->carveout = (int)rnd(104) - 2; break;
    case 2: s->carveout = 0; break;
    default: s->carveout = -1; break;
    }
}

static int failures;

static void report(const char *what, const cc_occ_device *d, const cc_occ_func *f,
                   const cc_occ_state *s, int bs, size_t dyn)
{
    if (failures++ < 20)
        fprintf(stderr,
                "MISMATCH %s: cc %d.%d bs %d regs %d static %zu dyn %zu cfg %d maxdyn %zu bars %d "
                "virt %d gc %d cache %d carve %d maxthr %d\n",
                what, d->major, d->minor, bs, f->num_regs, f->static_smem, dyn, f->smem_limit,
                f->max_dyn_smem, f->num_barriers, f->virtual_resources, f->gc, s->cache,
                s->carveout, f->max_threads_per_block);
}

static void compare_active(const cc_occ_device *d, const cc_occ_func *f, const cc_occ_state *s,
                           int bs, size_t dyn, unsigned *flags_seen, int *ok_count)
{
    cudaOccDeviceProp p;
    cudaOccFuncAttributes a;
    cudaOccDeviceState hs;
    cudaOccResult hr;
    cc_occ_result r;
    to_header_dev(d, &p);
    to_header_func(f, &a);
    memset(&hs, 0, sizeof hs);
    hs.cacheConfig = (cudaOccCacheConfig)s->cache;
    hs.carveoutConfig = s->carveout;
    memset(&hr, 0, sizeof hr);
    memset(&r, 0, sizeof r);
    int hst = (int)cudaOccMaxActiveBlocksPerMultiprocessor(&hr, &p, &a, &hs, bs, dyn);
    int st = (int)cc_occ_max_active_blocks(&r, d, f, s, bs, dyn);
    if (hst != st) {
        report("status", d, f, s, bs, dyn);
        return;
    }
    if (st != 0) return;
    (*ok_count)++;
    *flags_seen |= r.limiting;
    if (r.blocks_per_sm == 0) *flags_seen |= 0x100;
    if (hr.activeBlocksPerMultiprocessor != r.blocks_per_sm || hr.limitingFactors != r.limiting ||
        hr.blockLimitRegs != r.lim_regs || hr.blockLimitSharedMem != r.lim_smem ||
        hr.blockLimitWarps != r.lim_warps || hr.blockLimitBlocks != r.lim_blocks ||
        hr.blockLimitBarriers != r.lim_barriers || hr.blockLimitVirtual != r.lim_virtual ||
        hr.allocatedRegistersPerBlock != r.alloc_regs_per_block ||
        hr.allocatedSharedMemPerBlock != r.alloc_smem_per_block ||
        (int)hr.partitionedGCConfig != (int)r.gc)
        report("result", d, f, s, bs, dyn);
}

static size_t cb_factor;
static size_t header_cb(int bs) { return cb_factor * (size_t)bs; }
static size_t engine_cb(int bs, void *ctx) { (void)ctx; return cb_factor * (size_t)bs; }

static void compare_potential(const cc_occ_device *d, const cc_occ_func *f, const cc_occ_state *s,
                              size_t dyn)
{
    cudaOccDeviceProp p;
    cudaOccFuncAttributes a;
    cudaOccDeviceState hs = {(cudaOccCacheConfig)s->cache, s->carveout};
    to_header_dev(d, &p);
    to_header_func(f, &a);
    int hg = -7, hb = -7, g = -7, b = -7;
    int use_cb = rnd(4) == 0;
    cb_factor = rnd(300);
    int hst = (int)cudaOccMaxPotentialOccupancyBlockSize(&hg, &hb, &p, &a, &hs,
                                                          use_cb ? header_cb : NULL, dyn);
    int st = (int)cc_occ_max_potential_block_size(&g, &b, d, f, s, use_cb ? engine_cb : NULL,
                                                  NULL, dyn);
    if (hst != st || (st == 0 && (hg != g || hb != b))) report("potential", d, f, s, 0, dyn);
}

static void compare_available(const cc_occ_device *d, const cc_occ_func *f, const cc_occ_state *s,
                              int bs)
{
    cudaOccDeviceProp p;
    cudaOccFuncAttributes a;
    cudaOccDeviceState hs = {(cudaOccCacheConfig)s->cache, s->carveout};
    to_header_dev(d, &p);
    to_header_func(f, &a);
    int nb = (int)rnd(10);
    size_t hbytes = 7, bytes = 7;
    int hst = (int)cudaOccAvailableDynamicSMemPerBlock(&hbytes, &p, &a, &hs, nb, bs);
    int st = (int)cc_occ_available_dyn_smem(&bytes, d, f, s, nb, bs);
    if (hst != st || (st == 0 && hbytes != bytes)) report("available", d, f, s, bs, (size_t)nb);
}

int main(void)
{
    int n = cc_occ_preset_count();
    /* Extra devices: unknown CCs (errors) and odd minors, built from neighbouring presets. */
    cc_occ_device extra[6];
    const int extra_cc[6][2] = {{4, 0}, {12, 2}, {10, 2}, {8, 8}, {13, 0}, {11, 1}};
    for (int i = 0; i < 6; i++) {
        extra[i] = cc_occ_preset_find("sm_90")->dev;
        extra[i].major = extra_cc[i][0];
        extra[i].minor = extra_cc[i][1];
    }
    const int per_device = 6000;
    long total_active = 0;
    for (int i = 0; i < n + 6; i++) {
        const cc_occ_device *d = i < n ? &cc_occ_preset_at(i)->dev : &extra[i - n];
        unsigned seen = 0;
        int ok = 0;
        for (int k = 0; k < per_device; k++) {
            cc_occ_func f;
            cc_occ_state s;
            int bs;
            size_t dyn;
            random_config(d, &f, &s, &bs, &dyn);
            compare_active(d, &f, &s, bs, dyn, &seen, &ok);
            total_active++;
            if (k % 20 == 0) compare_potential(d, &f, &s, dyn);
            if (k % 4 == 0) compare_available(d, &f, &s, bs);
        }
        /* Exhaustive sweep of the common runtime-style space on this device. */
        for (int bs = 32; bs <= 1024; bs += 32)
            for (int regs = 0; regs <= 256; regs += 8) {
                cc_occ_func f;
                cc_occ_state s = cc_occ_state_default();
                cc_occ_func_runtime(&f, 1024, regs ? regs : 1, 0, 0, d->smem_per_block);
                compare_active(d, &f, &s, bs, (size_t)regs * 256, &seen, &ok);
                total_active++;
            }
        if (i < n) {
            /* Guard against a vacuous test: each preset must exercise several limiters. */
            if (ok < per_device / 2 || !(seen & CC_OCC_LIMIT_REGISTERS) ||
                !(seen & CC_OCC_LIMIT_SHARED_MEMORY) || !(seen & CC_OCC_LIMIT_WARPS) ||
                !(seen & 0x100)) {
                fprintf(stderr, "preset %s: too little coverage (ok %d, flags 0x%x)\n",
                        cc_occ_preset_at(i)->arch, ok, seen);
                failures++;
            }
        }
    }
    printf("occupancy oracle: %ld max-active configurations on %d devices, %d mismatches\n",
           total_active, n + 6, failures);
    if (total_active < 100000) {
        fprintf(stderr, "too few configurations\n");
        return 1;
    }
    return failures ? 1 : 0;
}
