/* Advice: the block size with the most resident threads (the cudaOccMaxPotentialBlockSize search)
 * and, per resource, the smallest change that reaches the next occupancy step (fewer registers,
 * less shared memory, a larger carveout) - or, when nothing fits, what makes the block fit. */
#include "occupancy/occupancy.h"

#include <stdio.h>
#include <string.h>

/* "48 KB", "1.5 KB" or "300 B". */
static const char *fmt_bytes(size_t b, char *buf, size_t cap)
{
    if (b >= 1024 && b % 1024 == 0) snprintf(buf, cap, "%zu KB", b / 1024);
    else if (b >= 1024) snprintf(buf, cap, "%.2f KB (%zu B)", b / 1024.0, b);
    else snprintf(buf, cap, "%zu B", b);
    return buf;
}

static double occ_of(const cc_occ_device *d, int warps)
{
    int max_w = d->max_threads_per_sm / d->warp_size;
    return max_w > 0 ? (double)warps / max_w : 0.0;
}

static int blocks_of(const cc_occ_device *d, const cc_occ_kernel *k)
{
    int wpb = (k->threads + d->warp_size - 1) / d->warp_size;
    return wpb ? cc_occ_warps_for(d, k) / wpb : 0;
}

static cc_occ_advice *push(cc_occ_advice *out, int *n, int cap, const char *kind)
{
    if (*n >= cap) return NULL;
    cc_occ_advice *a = &out[(*n)++];
    memset(a, 0, sizeof *a);
    snprintf(a->kind, sizeof a->kind, "%s", kind);
    return a;
}

static void advise_block_size(const cc_occ_device *d, const cc_occ_kernel *k, int cur,
                              cc_occ_advice *out, int *n, int cap)
{
    cc_occ_func f;
    cc_occ_state s;
    int min_grid = 0, best = 0;
    cc_occ_kernel_to_func(d, k, &f, &s);
    if (cc_occ_max_potential_block_size(&min_grid, &best, d, &f, &s, NULL, NULL,
                                        k->smem_dynamic) != CC_OCC_OK || best <= 0)
        return;
    cc_occ_kernel t = *k;
    t.threads = best;
    int w = cc_occ_warps_for(d, &t);
    int blocks = blocks_of(d, &t);
    if (w <= cur && best != k->threads) return; /* another size, but no gain */
    cc_occ_advice *a = push(out, n, cap, "block_size");
    if (!a) return;
    a->new_warps_per_sm = w;
    a->new_occupancy = occ_of(d, w);
    if (best == k->threads)
        snprintf(a->text, sizeof a->text,
                 "block size %d is already the one with the most resident threads (%d per SM); "
                 "a full wave is %d blocks", best, best * blocks, min_grid);
    else
        snprintf(a->text, sizeof a->text,
                 "block size %d gives the most resident threads: %d block%s x %d = %d threads per SM "
                 "-> %.1f%% occupancy (now %.1f%%); a full wave is %d blocks",
                 best, blocks, blocks == 1 ? "" : "s", best, best * blocks, 100.0 * a->new_occupancy, 100.0 * occ_of(d, cur),
                 min_grid);
}

static void advise_registers(const cc_occ_device *d, const cc_occ_kernel *k, int cur,
                             cc_occ_advice *out, int *n, int cap)
{
    cc_occ_kernel t = *k;
    for (int r = k->regs - 1; r >= 1; r--) {
        t.regs = r;
        int w = cc_occ_warps_for(d, &t);
        if (w <= cur) continue;
        int blocks = blocks_of(d, &t);
        cc_occ_advice *a = push(out, n, cap, "registers");
        if (!a) return;
        a->new_warps_per_sm = w;
        a->new_occupancy = occ_of(d, w);
        int lb_threads = k->max_threads > 0 ? k->max_threads : k->threads;
        snprintf(a->text, sizeof a->text,
                 "%s registers at %d per thread (now %d) with `__launch_bounds__(%d, %d)` or "
                 "-maxrregcount=%d -> %d blocks/SM, %.1f%% occupancy",
                 cur ? "cap" : "to launch at all, cap", r, k->regs, lb_threads, blocks, r, blocks,
                 100.0 * a->new_occupancy);
        return;
    }
}

static void advise_shared_memory(const cc_occ_device *d, const cc_occ_kernel *k, int cur,
                                 cc_occ_advice *out, int *n, int cap)
{
    size_t total = k->smem_static + k->smem_dynamic;
    int gran = 128;
    if (total == 0 || cc_occ_smem_granularity(d, &gran) != CC_OCC_OK) return;
    cc_occ_kernel t = *k;
    t.max_dyn_smem = 0;
    for (size_t s = ((total - 1) / (size_t)gran) * (size_t)gran;; s -= (size_t)gran) {
        t.smem_static = k->smem_static < s ? k->smem_static : s;
        t.smem_dynamic = s - t.smem_static;
        int w = cc_occ_warps_for(d, &t);
        if (w > cur) {
            char b1[48], b2[48];
            int blocks = blocks_of(d, &t);
            cc_occ_advice *a = push(out, n, cap, "shared_memory");
            if (!a) return;
            a->new_warps_per_sm = w;
            a->new_occupancy = occ_of(d, w);
            snprintf(a->text, sizeof a->text,
                     "shared memory per block %s -> %s gives %d blocks/SM, %.1f%% occupancy%s",
                     fmt_bytes(total, b1, sizeof b1), fmt_bytes(s, b2, sizeof b2), blocks,
                     100.0 * a->new_occupancy,
                     d->reserved_smem_per_block ? " (the 1 KB per-block reservation included)" : "");
            return;
        }
        if (s == 0) break;
    }
}

static void advise_carveout(const cc_occ_device *d, const cc_occ_kernel *k, int cur,
                            cc_occ_advice *out, int *n, int cap)
{
    if (k->carveout < 0 || d->major < 7) return;
    cc_occ_kernel t = *k;
    for (int c = k->carveout + 1; c <= 100; c++) {
        t.carveout = c;
        int w = cc_occ_warps_for(d, &t);
        if (w <= cur) continue;
        cc_occ_advice *a = push(out, n, cap, "carveout");
        if (!a) return;
        a->new_warps_per_sm = w;
        a->new_occupancy = occ_of(d, w);
        snprintf(a->text, sizeof a->text,
                 "shared-memory carveout %d%% -> %d%% (cudaFuncAttributePreferredSharedMemoryCarveout) "
                 "gives %d blocks/SM, %.1f%% occupancy",
                 k->carveout, c, blocks_of(d, &t), 100.0 * a->new_occupancy);
        return;
    }
}

int cc_occ_advise(const cc_occ_device *d, const cc_occ_kernel *k, cc_occ_advice *out, int cap)
{
    int n = 0;
    cc_occ_analysis an;
    if (cc_occ_analyze(d, k, &an) != CC_OCC_OK) return 0;
    int cur = an.warps_per_sm;
    advise_block_size(d, k, cur, out, &n, cap);
    if (cur >= an.max_warps_per_sm) {
        cc_occ_advice *a = push(out, &n, cap, "none");
        if (a) {
            a->new_warps_per_sm = cur;
            a->new_occupancy = an.occupancy;
            snprintf(a->text, sizeof a->text,
                     "theoretical occupancy is already 100%%; no resource change raises it");
        }
        return n;
    }
    advise_registers(d, k, cur, out, &n, cap);
    advise_shared_memory(d, k, cur, out, &n, cap);
    advise_carveout(d, k, cur, out, &n, cap);
    return n;
}
