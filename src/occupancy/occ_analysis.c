/* Analysis of one kernel launch on one device: engine inputs from a user-level kernel description,
 * derived numbers (warps, occupancy, waves) and a plain-words reason when the block cannot launch. */
#include "occupancy/occupancy.h"

#include <stdio.h>
#include <string.h>

void cc_occ_kernel_init(cc_occ_kernel *k)
{
    memset(k, 0, sizeof *k);
    k->carveout = -1;
    k->barriers = 1;
}

void cc_occ_kernel_to_func(const cc_occ_device *d, const cc_occ_kernel *k, cc_occ_func *f,
                           cc_occ_state *s)
{
    size_t max_dyn = k->max_dyn_smem;
    if (max_dyn == 0 && k->smem_static + k->smem_dynamic > d->smem_per_block)
        max_dyn = k->smem_dynamic; /* opted in: cudaFuncAttributeMaxDynamicSharedMemorySize */
    cc_occ_func_runtime(f, k->max_threads > 0 ? k->max_threads : d->max_threads_per_block, k->regs,
                        k->smem_static, max_dyn, d->smem_per_block);
    f->num_barriers = k->barriers;
    *s = cc_occ_state_default();
    s->carveout = k->carveout;
}

int cc_occ_limiter_names(unsigned mask, const char **names, int cap)
{
    static const struct { unsigned bit; const char *name; } tab[] = {
        {CC_OCC_LIMIT_WARPS, "warps"},         {CC_OCC_LIMIT_REGISTERS, "registers"},
        {CC_OCC_LIMIT_SHARED_MEMORY, "shared_memory"}, {CC_OCC_LIMIT_BLOCKS, "blocks"},
        {CC_OCC_LIMIT_BARRIERS, "barriers"},   {CC_OCC_LIMIT_VIRTUAL, "virtual_resources"},
    };
    int n = 0;
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if ((mask & tab[i].bit) && n < cap) names[n++] = tab[i].name;
    return n;
}

static void explain_zero(const cc_occ_device *d, const cc_occ_kernel *k, const cc_occ_func *f,
                         const cc_occ_result *r, char *buf, size_t cap)
{
    int max_regs = 255;
    cc_occ_max_regs_per_thread(d, &max_regs);
    if (r->lim_warps == 0) {
        snprintf(buf, cap, "a block of %d threads exceeds the maximum of %d threads per block",
                 k->threads, d->max_threads_per_block);
    } else if (r->lim_regs == 0) {
        if (k->regs > max_regs)
            snprintf(buf, cap, "%d registers per thread exceed the maximum of %d", k->regs, max_regs);
        else
            snprintf(buf, cap,
                     "the block needs %d registers (%d per thread, allocated per warp in units of "
                     "256), more than the %d available to one block",
                     r->alloc_regs_per_block, k->regs, d->regs_per_block);
    } else if (r->lim_smem == 0) {
        size_t per_block = 0;
        cc_occ_smem_per_block_limit(d, f->smem_limit, f->static_smem + d->reserved_smem_per_block +
                                                           f->max_dyn_smem, &per_block);
        if (f->smem_limit == CC_OCC_SMEM_LIMIT_OPTIN && k->smem_dynamic > f->max_dyn_smem)
            snprintf(buf, cap,
                     "dynamic shared memory %zu B exceeds the kernel's maximum dynamic shared memory "
                     "of %zu B (cudaFuncAttributeMaxDynamicSharedMemorySize)",
                     k->smem_dynamic, f->max_dyn_smem);
        else
            snprintf(buf, cap,
                     "the block needs %zu B of shared memory (%zu static + %zu dynamic + %zu "
                     "reserved, rounded up), more than the %zu B a block may use",
                     r->alloc_smem_per_block, k->smem_static, k->smem_dynamic,
                     d->reserved_smem_per_block, per_block);
    } else if (r->lim_virtual == 0) {
        snprintf(buf, cap, "the kernel needs more virtual resources than an SM has");
    } else if (r->lim_barriers == 0) {
        snprintf(buf, cap, "the kernel uses %d barriers, more than an SM provides", k->barriers);
    } else {
        snprintf(buf, cap, "no block fits on an SM");
    }
}

cc_occ_status cc_occ_analyze(const cc_occ_device *d, const cc_occ_kernel *k, cc_occ_analysis *a)
{
    cc_occ_func f;
    cc_occ_state s;
    memset(a, 0, sizeof *a);
    cc_occ_kernel_to_func(d, k, &f, &s);
    a->status = cc_occ_max_active_blocks(&a->r, d, &f, &s, k->threads, k->smem_dynamic);
    if (d->warp_size > 0) {
        a->warps_per_block = (k->threads + d->warp_size - 1) / d->warp_size;
        a->max_warps_per_sm = d->max_threads_per_sm / d->warp_size;
    }
    if (a->status != CC_OCC_OK) {
        snprintf(a->reason, sizeof a->reason, "occupancy engine: %s", cc_occ_status_str(a->status));
        return a->status;
    }
    a->warps_per_sm = a->r.blocks_per_sm * a->warps_per_block;
    a->occupancy = a->max_warps_per_sm > 0 ? (double)a->warps_per_sm / a->max_warps_per_sm : 0.0;
    if (a->r.blocks_per_sm == 0) {
        explain_zero(d, k, &f, &a->r, a->reason, sizeof a->reason);
    } else if (k->max_threads > 0 && k->threads > k->max_threads) {
        /* The engine (like the header) ignores the kernel's own limit; the launch would fail. */
        a->r.blocks_per_sm = 0;
        a->warps_per_sm = 0;
        a->occupancy = 0.0;
        snprintf(a->reason, sizeof a->reason,
                 "a block of %d threads exceeds the kernel's __launch_bounds__ maximum of %d threads",
                 k->threads, k->max_threads);
    }
    if (k->grid > 0 && a->r.blocks_per_sm > 0) {
        long long wave = (long long)a->r.blocks_per_sm * d->num_sms;
        a->waves = (double)k->grid / (double)wave;
        a->full_waves = k->grid / wave;
        a->tail_blocks = k->grid % wave;
    }
    return CC_OCC_OK;
}

int cc_occ_warps_for(const cc_occ_device *d, const cc_occ_kernel *k)
{
    cc_occ_func f;
    cc_occ_state s;
    cc_occ_result r;
    if (k->max_threads > 0 && k->threads > k->max_threads) return 0;
    cc_occ_kernel_to_func(d, k, &f, &s);
    if (cc_occ_max_active_blocks(&r, d, &f, &s, k->threads, k->smem_dynamic) != CC_OCC_OK) return 0;
    return r.blocks_per_sm * ((k->threads + d->warp_size - 1) / d->warp_size);
}
