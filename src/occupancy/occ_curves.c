/* What-if curves (the three graphs of NVIDIA's Occupancy Calculator / Nsight Compute): active warps
 * per SM against block size, registers per thread and shared memory per block, the other inputs
 * held fixed; built from the engine and printed as text tables with runs merged. */
#include "occupancy/occupancy.h"

#include <stdlib.h>

const char *cc_occ_curve_file_name(cc_occ_curve_kind kind)
{
    switch (kind) {
    case CC_OCC_CURVE_BLOCK_SIZE: return "occupancy_block_size.svg";
    case CC_OCC_CURVE_REGISTERS: return "occupancy_registers.svg";
    case CC_OCC_CURVE_SHARED_MEMORY: return "occupancy_shared_memory.svg";
    }
    return "occupancy.svg";
}

static int alloc_points(cc_occ_curve *c, int n)
{
    c->x = calloc((size_t)n, sizeof *c->x);
    c->warps = calloc((size_t)n, sizeof *c->warps);
    if (!c->x || !c->warps) {
        cc_occ_curve_free(c);
        return -1;
    }
    return 0;
}

int cc_occ_curve_build(const cc_occ_device *d, const cc_occ_kernel *k, cc_occ_curve_kind kind,
                       cc_occ_curve *c)
{
    cc_occ_kernel t = *k;
    c->kind = kind;
    c->n = 0;
    c->x = NULL;
    c->warps = NULL;
    c->max_warps = d->warp_size > 0 ? d->max_threads_per_sm / d->warp_size : 0;
    c->current_warps = cc_occ_warps_for(d, k);
    if (d->warp_size <= 0 || d->max_threads_per_block <= 0) return -1;
    switch (kind) {
    case CC_OCC_CURVE_BLOCK_SIZE: {
        int n = d->max_threads_per_block / d->warp_size;
        c->title = "Impact of Varying Block Size";
        c->x_label = "Threads per block";
        c->current_x = k->threads;
        if (n <= 0 || alloc_points(c, n)) return -1;
        for (int i = 0; i < n; i++) {
            t.threads = (i + 1) * d->warp_size;
            c->x[i] = t.threads;
            c->warps[i] = cc_occ_warps_for(d, &t);
        }
        c->n = n;
        return 0;
    }
    case CC_OCC_CURVE_REGISTERS: {
        int max_regs = 255;
        if (cc_occ_max_regs_per_thread(d, &max_regs) != CC_OCC_OK) return -1;
        if (max_regs > 255) max_regs = 255; /* ptxas never allocates more */
        c->title = "Impact of Varying Register Count Per Thread";
        c->x_label = "Registers per thread";
        c->current_x = k->regs;
        if (alloc_points(c, max_regs)) return -1;
        for (int r = 1; r <= max_regs; r++) {
            t.regs = r;
            c->x[r - 1] = r;
            c->warps[r - 1] = cc_occ_warps_for(d, &t);
        }
        c->n = max_regs;
        return 0;
    }
    case CC_OCC_CURVE_SHARED_MEMORY: {
        int gran;
        if (cc_occ_smem_granularity(d, &gran) != CC_OCC_OK) return -1;
        size_t cap = d->major >= 7 && d->smem_per_block_optin > d->smem_per_block
                         ? d->smem_per_block_optin : d->smem_per_block;
        int n = (int)(cap / (size_t)gran) + 1;
        c->title = "Impact of Varying Shared Memory Usage Per Block";
        c->x_label = "Shared memory per block (bytes)";
        c->current_x = (long)(k->smem_static + k->smem_dynamic);
        if (alloc_points(c, n)) return -1;
        t.max_dyn_smem = 0;
        t.smem_static = 0;
        for (int i = 0; i < n; i++) {
            t.smem_dynamic = (size_t)i * (size_t)gran;
            c->x[i] = (long)t.smem_dynamic;
            c->warps[i] = cc_occ_warps_for(d, &t);
        }
        c->n = n;
        return 0;
    }
    }
    return -1;
}

void cc_occ_curve_free(cc_occ_curve *c)
{
    free(c->x);
    free(c->warps);
    c->x = NULL;
    c->warps = NULL;
    c->n = 0;
}

void cc_occ_curve_print(FILE *out, const cc_occ_curve *c)
{
    int smem = c->kind == CC_OCC_CURVE_SHARED_MEMORY;
    fprintf(out, "%s (current: %ld%s -> %d warps/SM)\n", c->title, c->current_x,
            smem ? " B" : "", c->current_warps);
    fprintf(out, "  %-24s %12s %10s\n", c->x_label, "warps/SM", "occupancy");
    for (int i = 0; i < c->n;) {
        int j = i;
        while (j + 1 < c->n && c->warps[j + 1] == c->warps[i]) j++;
        char range[48];
        if (i == j) snprintf(range, sizeof range, "%ld", c->x[i]);
        else snprintf(range, sizeof range, "%ld - %ld", c->x[i], c->x[j]);
        int here = c->current_x >= c->x[i] &&
                   (c->current_x <= c->x[j] || (j + 1 < c->n && c->current_x < c->x[j + 1]) ||
                    (j + 1 == c->n && c->current_x <= c->x[j]));
        double pct = c->max_warps ? 100.0 * c->warps[i] / c->max_warps : 0.0;
        fprintf(out, "  %-24s %12d %9.1f%%%s\n", range, c->warps[i], pct,
                here ? "   <- current" : "");
        i = j + 1;
    }
}
