/* The occupancy algorithm of cuda_occupancy.h, step by step and in the header's order (spec
 * section 4): validate, partitioned caching, registers (+ GP100 rule), warps, blocks, shared
 * memory, virtual resources, combine, barriers. Plus the block-size search (section 7) and the
 * available-dynamic-shared-memory query (section 6). */
#include "occupancy/occ_engine.h"

#include <limits.h>

/* int arithmetic as the header does it, but without signed-overflow UB (wraps like gcc). */
static int wrap_add(int a, int b) { return (int)((unsigned)a + (unsigned)b); }
static int wrap_mul(int a, int b) { return (int)((unsigned)a * (unsigned)b); }
static int div_up(int x, int y) { return wrap_add(x, y - 1) / y; }
static int round_up(int x, int y) { return wrap_mul(y, div_up(x, y)); }
static int imin(int a, int b) { return b < a ? b : a; }

void cc_occ_func_runtime(cc_occ_func *f, int max_threads, int regs, size_t static_smem,
                         size_t max_dyn_smem, size_t default_smem_per_block)
{
    f->max_threads_per_block = max_threads;
    f->num_regs = regs;
    f->static_smem = static_smem;
    f->gc = CC_OCC_GC_OFF;
    f->smem_limit = CC_OCC_SMEM_LIMIT_OPTIN;
    if (max_dyn_smem == 0)
        max_dyn_smem = static_smem < default_smem_per_block ? default_smem_per_block - static_smem : 0;
    f->max_dyn_smem = max_dyn_smem;
    f->num_barriers = 1;
    f->virtual_resources = 0;
}

cc_occ_state cc_occ_state_default(void)
{
    cc_occ_state s = {CC_OCC_CACHE_NONE, -1};
    return s;
}

static cc_occ_status check_input(const cc_occ_device *d, const cc_occ_func *f)
{
    if (!d || !f) return CC_OCC_ERR_INVALID_INPUT;
    if (d->max_threads_per_block <= 0 || d->max_threads_per_sm <= 0 || d->regs_per_block <= 0 ||
        d->regs_per_sm <= 0 || d->warp_size <= 0 || d->smem_per_block == 0 ||
        d->smem_per_sm == 0 || d->num_sms <= 0)
        return CC_OCC_ERR_INVALID_INPUT;
    if (f->max_threads_per_block <= 0 || f->num_regs < 0) return CC_OCC_ERR_INVALID_INPUT;
    return CC_OCC_OK;
}

/* Register limit for sub-partition count nsp; may switch *gc off (spec 4.2). */
static cc_occ_status reg_limit(const cc_occ_device *d, const cc_occ_func *f, int nsp,
                               int block_size, cc_occ_gc *gc, int *limit, int *alloc_per_block)
{
    int max_regs;
    cc_occ_status st = cc_occ_max_regs_per_thread(d, &max_regs);
    if (st != CC_OCC_OK) return st;
    int wpc = div_up(block_size, d->warp_size);
    int rpw = round_up(wrap_mul(f->num_regs, d->warp_size), 256);
    int rpc = wrap_mul(rpw, wpc);
    int rhw = wrap_mul(rpw, round_up(wpc, nsp));
    int lim;
    if (d->regs_per_block < rhw || d->regs_per_block < rpc || f->num_regs > max_regs) {
        lim = 0;
    } else if (rpw == 0) {
        lim = INT_MAX;
    } else {
        int wpsp = (d->regs_per_sm / nsp) / rpw;
        lim = 0;
        if (*gc != CC_OCC_GC_OFF) lim = ((wpsp * (nsp / 2)) / wpc) * 2;
        if (lim == 0 && *gc != CC_OCC_GC_ON_STRICT) {
            *gc = CC_OCC_GC_OFF;
            lim = (wpsp * nsp) / wpc;
        }
    }
    *limit = lim;
    *alloc_per_block = rpc;
    return CC_OCC_OK;
}

static cc_occ_status smem_limit(const cc_occ_device *d, const cc_occ_func *f,
                                const cc_occ_state *s, size_t dyn, int *limit, size_t *alloc_out)
{
    int gran;
    size_t pref, per_block, sm_smem;
    cc_occ_status st = cc_occ_smem_granularity(d, &gran);
    if (st != CC_OCC_OK) return st;
    st = cc_occ_smem_preference(d, s, &pref);
    if (st != CC_OCC_OK) return st;
    size_t static_total = f->static_smem + d->reserved_smem_per_block;
    size_t total = static_total + dyn;
    size_t alloc = (size_t)round_up((int)total, gran);
    size_t max_use = static_total + f->max_dyn_smem;
    int dyn_exceeded = f->smem_limit != CC_OCC_SMEM_LIMIT_DEFAULT && dyn > f->max_dyn_smem;
    st = cc_occ_smem_per_block_limit(d, f->smem_limit, max_use, &per_block);
    if (st != CC_OCC_OK) return st;
    *alloc_out = alloc;
    if (dyn_exceeded || alloc > per_block) {
        *limit = 0;
        return CC_OCC_OK;
    }
    if (pref >= alloc) {
        sm_smem = pref;
    } else if (d->major >= 7) {
        st = cc_occ_align_up_to_config(d, alloc, &sm_smem);
        if (st != CC_OCC_OK) return st;
    } else {
        sm_smem = d->smem_per_sm;
    }
    *limit = alloc > 0 ? (int)(sm_smem / alloc) : INT_MAX;
    return CC_OCC_OK;
}

cc_occ_status cc_occ_max_active_blocks(cc_occ_result *r, const cc_occ_device *d,
                                       const cc_occ_func *f, const cc_occ_state *s,
                                       int block_size, size_t dyn_smem)
{
    if (!r || !s || block_size <= 0) return CC_OCC_ERR_INVALID_INPUT;
    cc_occ_status st = check_input(d, f);
    if (st != CC_OCC_OK) return st;

    cc_occ_gc gc = cc_occ_gc_supported(d) ? f->gc : CC_OCC_GC_OFF;
    int nsp, lim_regs, alloc_regs;
    st = cc_occ_sub_partitions(d, &nsp);
    if (st != CC_OCC_OK) return st;
    st = reg_limit(d, f, nsp, block_size, &gc, &lim_regs, &alloc_regs);
    if (st != CC_OCC_OK) return st;
    if (d->major == 6 && d->minor == 0 && lim_regs != 0) {
        /* GP100: a kernel must also fit a GP10x SM (4 sub-partitions). */
        cc_occ_gc gc_copy = gc;
        int lim4;
        st = reg_limit(d, f, 4, block_size, &gc_copy, &lim4, &alloc_regs);
        if (st != CC_OCC_OK) return st;
        if (lim4 == 0) lim_regs = 0;
    }

    int wpc = div_up(block_size, d->warp_size);
    int lim_warps;
    if (block_size > d->max_threads_per_block) {
        lim_warps = 0;
    } else {
        int max_w = d->max_threads_per_sm / d->warp_size;
        lim_warps = gc != CC_OCC_GC_OFF ? ((max_w / 2) / wpc) * 2 : max_w / wpc;
    }

    int lim_blocks;
    st = cc_occ_max_blocks_per_sm(d, &lim_blocks);
    if (st != CC_OCC_OK) return st;

    int lim_smem;
    size_t alloc_smem = 0;
    st = smem_limit(d, f, s, dyn_smem, &lim_smem, &alloc_smem);
    if (st != CC_OCC_OK) return st;

    int vmax = cc_occ_virtual_resources_per_sm(d);
    int lim_virt = (vmax <= 0 || f->virtual_resources <= 0) ? INT_MAX : vmax / f->virtual_resources;

    int lim = imin(lim_regs, imin(lim_smem, imin(lim_warps, imin(lim_blocks, lim_virt))));
    unsigned fl = 0;
    if (lim == lim_warps) fl |= CC_OCC_LIMIT_WARPS;
    if (lim == lim_regs) fl |= CC_OCC_LIMIT_REGISTERS;
    if (lim == lim_smem) fl |= CC_OCC_LIMIT_SHARED_MEMORY;
    if (lim == lim_blocks) fl |= CC_OCC_LIMIT_BLOCKS;
    if (lim == lim_virt) fl |= CC_OCC_LIMIT_VIRTUAL;

    int lim_bars = INT_MAX;
    if (d->major >= 9 && f->num_barriers > 0) {
        int per_sm;
        st = cc_occ_barriers_per_sm(d, &per_sm);
        if (st != CC_OCC_OK) return st;
        lim_bars = per_sm / f->num_barriers;
        lim = imin(lim_bars, lim);
        if (lim == lim_bars) fl |= CC_OCC_LIMIT_BARRIERS;
    }

    r->blocks_per_sm = lim;
    r->limiting = fl;
    r->lim_regs = lim_regs;
    r->lim_smem = lim_smem;
    r->lim_warps = lim_warps;
    r->lim_blocks = lim_blocks;
    r->lim_barriers = lim_bars;
    r->lim_virtual = lim_virt;
    r->alloc_regs_per_block = alloc_regs;
    r->alloc_smem_per_block = alloc_smem;
    r->gc = gc;
    return CC_OCC_OK;
}

cc_occ_status cc_occ_max_potential_block_size(int *min_grid, int *block_size,
                                              const cc_occ_device *d, const cc_occ_func *f,
                                              const cc_occ_state *s, cc_occ_dyn_fn dyn_of_block_size,
                                              void *ctx, size_t dyn_smem)
{
    if (!min_grid || !block_size || !s) return CC_OCC_ERR_INVALID_INPUT;
    cc_occ_status st = check_input(d, f);
    if (st != CC_OCC_OK) return st;
    int occ_limit = d->max_threads_per_sm;
    int gran = d->warp_size;
    int bs_limit = imin(d->max_threads_per_block, f->max_threads_per_block);
    int best = 0, best_blocks = 0, best_threads = 0;
    for (int t = round_up(bs_limit, gran); t > 0; t -= gran) {
        int bs = imin(bs_limit, t);
        size_t dyn = dyn_of_block_size ? dyn_of_block_size(bs, ctx) : dyn_smem;
        cc_occ_result r;
        st = cc_occ_max_active_blocks(&r, d, f, s, bs, dyn);
        if (st != CC_OCC_OK) return st;
        int thr = bs * r.blocks_per_sm;
        if (thr > best_threads) {
            best = bs;
            best_blocks = r.blocks_per_sm;
            best_threads = thr;
        }
        if (occ_limit == best_threads) break;
    }
    *min_grid = best_blocks * d->num_sms;
    *block_size = best;
    return CC_OCC_OK;
}

cc_occ_status cc_occ_available_dyn_smem(size_t *bytes, const cc_occ_device *d,
                                        const cc_occ_func *f, const cc_occ_state *s,
                                        int num_blocks, int block_size)
{
    if (!bytes) return CC_OCC_ERR_INVALID_INPUT;
    if (num_blocks <= 0) return CC_OCC_ERR_INVALID_INPUT;
    cc_occ_result r;
    cc_occ_status st = cc_occ_max_active_blocks(&r, d, f, s, block_size, 0);
    if (st != CC_OCC_OK) return st;
    if (r.blocks_per_sm < num_blocks) return CC_OCC_ERR_INVALID_INPUT;
    int gran;
    size_t per_block, pref = 0, sm_smem;
    st = cc_occ_smem_granularity(d, &gran);
    if (st != CC_OCC_OK) return st;
    st = cc_occ_smem_per_block_limit(d, f->smem_limit, d->smem_per_sm, &per_block);
    if (st != CC_OCC_OK) return st;
    if (cc_occ_smem_preference(d, s, &pref) != CC_OCC_OK) pref = 0;
    if (num_blocks == 1) {
        sm_smem = per_block;
    } else {
        if (pref == 0) {
            st = cc_occ_align_up_to_config(d, 1, &pref);
            if (st != CC_OCC_OK) return st;
        }
        sm_smem = pref;
    }
    size_t avail = ((sm_smem / (size_t)num_blocks) / (size_t)gran) * (size_t)gran;
    if (avail > per_block) avail = per_block;
    avail = avail - f->static_smem;
    if (avail > f->max_dyn_smem) avail = f->max_dyn_smem;
    *bytes = avail;
    return CC_OCC_OK;
}
