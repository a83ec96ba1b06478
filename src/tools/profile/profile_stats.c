/* The profile's statistics, in the shape of `nsys stats`: GPU kernels by name, API calls by
 * function (driver calls nested in a runtime call left out), memory operations by time and by
 * size, NVTX ranges by name — each with count, total, average, median, minimum, maximum and
 * sample standard deviation, and the share of the table's total. Plus one row per distinct
 * launch configuration of a kernel with its theoretical occupancy (the occupancy engine). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "occupancy/occupancy.h"
#include "tools/profile/profile.h"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y ? 1 : 0;
}

void cc_prof_stat_of(double *v, size_t n, cc_prof_stat *out)
{
    memset(out, 0, sizeof *out);
    out->count = n;
    if (n == 0) return;
    qsort(v, n, sizeof *v, cmp_double);
    double sum = 0;
    for (size_t i = 0; i < n; i++) sum += v[i];
    out->total = sum;
    out->avg = sum / (double)n;
    out->med = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
    out->min = v[0];
    out->max = v[n - 1];
    if (n > 1) {
        double ss = 0;
        for (size_t i = 0; i < n; i++) ss += (v[i] - out->avg) * (v[i] - out->avg);
        out->stddev = sqrt(ss / (double)(n - 1));
    }
}

const char *cc_prof_memop_name(uint32_t op, uint32_t direction)
{
    if (op == CC_COPY_OP_MEMSET) return "[CUDA memset]";
    switch (direction) {
    case CC_COPY_H2D: return "[CUDA memcpy Host-to-Device]";
    case CC_COPY_D2H: return "[CUDA memcpy Device-to-Host]";
    case CC_COPY_D2D: return "[CUDA memcpy Device-to-Device]";
    case CC_COPY_H2H: return "[CUDA memcpy Host-to-Host]";
    case CC_COPY_PEER: return "[CUDA memcpy Peer-to-Peer]";
    default: return "[CUDA memcpy Unknown]";
    }
}

/* A (group, value, extra) triple; groups are formed by sorting on key. */
typedef struct {
    const char *key;
    double value;
    double extra;
} item;

static int cmp_item(const void *a, const void *b)
{
    const item *x = a, *y = b;
    return strcmp(x->key, y->key);
}

static int cmp_stat_total_desc(const void *a, const void *b)
{
    const cc_prof_stat *x = a, *y = b;
    if (x->total != y->total) return x->total > y->total ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* Groups items by key into t (sorted by total, descending). 0, or -1 out of memory. */
static int build_table(item *items, size_t n, cc_prof_table *t)
{
    memset(t, 0, sizeof *t);
    if (n == 0) return 0;
    qsort(items, n, sizeof *items, cmp_item);
    size_t groups = 0;
    for (size_t i = 0; i < n; i++)
        if (i == 0 || strcmp(items[i].key, items[i - 1].key) != 0) groups++;
    t->rows = calloc(groups, sizeof *t->rows);
    double *vals = malloc(n * sizeof *vals);
    if (!t->rows || !vals) {
        free(t->rows);
        free(vals);
        t->rows = NULL;
        return -1;
    }
    double grand = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        double extra = 0;
        while (j < n && strcmp(items[j].key, items[i].key) == 0) {
            vals[j - i] = items[j].value;
            extra += items[j].extra;
            j++;
        }
        cc_prof_stat *r = &t->rows[t->n++];
        cc_prof_stat_of(vals, j - i, r);
        r->name = items[i].key;
        r->other = extra;
        grand += r->total;
        i = j;
    }
    for (size_t i = 0; i < t->n; i++)
        t->rows[i].percent = grand > 0 ? 100.0 * t->rows[i].total / grand : 0;
    qsort(t->rows, t->n, sizeof *t->rows, cmp_stat_total_desc);
    free(vals);
    return 0;
}

static double dur(uint64_t start, uint64_t end) { return end > start ? (double)(end - start) : 0; }

/* ---- occupancy of one launch configuration ---- */

/* Engine inputs of a device: the preset of its architecture, overridden by what the backend
 * reported. 0, or -1 with the reason in why. */
static int occ_device_of(const cc_prof_device *dev, cc_occ_device *out, char *why, size_t n)
{
    char arch[32];
    if (!dev || dev->cc_major == 0) {
        snprintf(why, n, "device limits unknown");
        return -1;
    }
    snprintf(arch, sizeof arch, "sm_%u%u", dev->cc_major, dev->cc_minor);
    const cc_occ_preset *p = cc_occ_preset_find(arch);
    if (!p) {
        snprintf(why, n, "no occupancy rules for %s", arch);
        return -1;
    }
    *out = p->dev;
    if (dev->sm_count) out->num_sms = (int)dev->sm_count;
    if (dev->has_limits) {
        const cc_ev_device_limits *l = &dev->lim;
        if (l->max_threads_per_block) out->max_threads_per_block = (int)l->max_threads_per_block;
        if (l->max_warps_per_sm && l->warp_size)
            out->max_threads_per_sm = (int)(l->max_warps_per_sm * l->warp_size);
        if (l->warp_size) out->warp_size = (int)l->warp_size;
        if (l->regs_per_block) out->regs_per_block = (int)l->regs_per_block;
        if (l->regs_per_sm) out->regs_per_sm = (int)l->regs_per_sm;
        if (l->smem_per_block) out->smem_per_block = l->smem_per_block;
        if (l->smem_per_sm) out->smem_per_sm = l->smem_per_sm;
    }
    return 0;
}

static void occupancy_of(const cc_prof_data *d, cc_prof_launch *l)
{
    cc_occ_device dev;
    if (occ_device_of(cc_prof_find_device(d, l->device), &dev, l->why, sizeof l->why) != 0)
        return;
    cc_occ_kernel k;
    cc_occ_kernel_init(&k);
    uint64_t threads = (uint64_t)l->block[0] * l->block[1] * l->block[2];
    k.threads = threads > 1u << 30 ? 1 << 30 : (int)threads;
    k.regs = (int)l->regs;
    k.smem_static = l->static_smem;
    k.smem_dynamic = l->dynamic_smem;
    k.local_bytes = l->local_mem;
    k.grid = (long long)((uint64_t)l->grid[0] * l->grid[1] * l->grid[2]);
    cc_occ_analysis a;
    if (cc_occ_analyze(&dev, &k, &a) != CC_OCC_OK) {
        snprintf(l->why, sizeof l->why, "%s", a.reason[0] ? a.reason : "invalid configuration");
        return;
    }
    l->has_occupancy = 1;
    l->occupancy = a.occupancy;
    l->blocks_per_sm = a.r.blocks_per_sm;
    l->warps_per_sm = a.warps_per_sm;
    l->max_warps_per_sm = a.max_warps_per_sm;
    l->waves = a.waves;
    const char *names[8];
    int nn = cc_occ_limiter_names(a.r.limiting, names, 8);
    l->limiter[0] = '\0';
    for (int i = 0; i < nn; i++) {
        size_t len = strlen(l->limiter);
        snprintf(l->limiter + len, sizeof l->limiter - len, "%s%s", i ? "+" : "", names[i]);
    }
    if (a.reason[0]) snprintf(l->why, sizeof l->why, "%s", a.reason);
}

static int same_config(const cc_prof_kernel *a, const cc_prof_kernel *b)
{
    return a->name == b->name && a->device == b->device &&
           memcmp(a->grid, b->grid, sizeof a->grid) == 0 &&
           memcmp(a->block, b->block, sizeof a->block) == 0 && a->regs == b->regs &&
           a->static_smem == b->static_smem && a->dynamic_smem == b->dynamic_smem;
}

static int cmp_kernel_config(const void *x, const void *y)
{
    const cc_prof_kernel *a = x, *b = y;
#define C(f) if (a->f != b->f) return a->f < b->f ? -1 : 1
    C(name); C(device); C(grid[0]); C(grid[1]); C(grid[2]); C(block[0]); C(block[1]);
    C(block[2]); C(regs); C(static_smem); C(dynamic_smem); C(start);
#undef C
    return 0;
}

static int cmp_launch_total_desc(const void *x, const void *y)
{
    const cc_prof_launch *a = x, *b = y;
    if (a->total != b->total) return a->total > b->total ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int build_launches(cc_prof_data *d, cc_prof_stats *s)
{
    if (d->nkernels == 0) return 0;
    cc_prof_kernel *k = malloc(d->nkernels * sizeof *k);
    if (!k) return -1;
    memcpy(k, d->kernels, d->nkernels * sizeof *k);
    qsort(k, d->nkernels, sizeof *k, cmp_kernel_config);
    size_t groups = 0;
    for (size_t i = 0; i < d->nkernels; i++)
        if (i == 0 || !same_config(&k[i], &k[i - 1])) groups++;
    s->launches = calloc(groups, sizeof *s->launches);
    if (!s->launches) {
        free(k);
        return -1;
    }
    for (size_t i = 0; i < d->nkernels; i++) {
        if (i == 0 || !same_config(&k[i], &k[i - 1])) {
            cc_prof_launch *l = &s->launches[s->nlaunches++];
            l->name = cc_prof_str(d, k[i].name);
            l->device = k[i].device;
            memcpy(l->grid, k[i].grid, sizeof l->grid);
            memcpy(l->block, k[i].block, sizeof l->block);
            l->regs = k[i].regs;
            l->static_smem = k[i].static_smem;
            l->dynamic_smem = k[i].dynamic_smem;
            l->local_mem = k[i].local_mem;
        }
        cc_prof_launch *l = &s->launches[s->nlaunches - 1];
        l->count++;
        l->total += dur(k[i].start, k[i].end);
    }
    free(k);
    for (size_t i = 0; i < s->nlaunches; i++) occupancy_of(d, &s->launches[i]);
    qsort(s->launches, s->nlaunches, sizeof *s->launches, cmp_launch_total_desc);
    return 0;
}

static const char *range_key(cc_prof_data *d, const cc_prof_range *r)
{
    const char *dom = cc_prof_str(d, r->domain);
    if (!*dom) return cc_prof_str(d, r->name);
    size_t n = strlen(dom) + strlen(cc_prof_str(d, r->name)) + 2;
    char *buf = malloc(n);
    if (!buf) return cc_prof_str(d, r->name);
    snprintf(buf, n, "%s:%s", dom, cc_prof_str(d, r->name));
    uint32_t id = cc_prof_intern(d, buf); /* kept by the store, so the pointer stays valid */
    free(buf);
    return cc_prof_str(d, id);
}

int cc_prof_stats_build(cc_prof_data *d, cc_prof_stats *s)
{
    memset(s, 0, sizeof *s);
    size_t cap = d->nkernels;
    if (d->napis > cap) cap = d->napis;
    if (d->ncopies > cap) cap = d->ncopies;
    if (d->nranges > cap) cap = d->nranges;
    item *items = malloc((cap ? cap : 1) * sizeof *items);
    if (!items) return -1;
    int rc = 0;

    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < d->nkernels; i++) {
        items[i] = (item){cc_prof_str(d, d->kernels[i].name),
                          dur(d->kernels[i].start, d->kernels[i].end), 0};
        s->kernel_total_ns += items[i].value;
        if (d->kernels[i].start < lo) lo = d->kernels[i].start;
        if (d->kernels[i].end > hi) hi = d->kernels[i].end;
    }
    for (size_t i = 0; i < d->ncopies; i++) {
        if (d->copies[i].start < lo) lo = d->copies[i].start;
        if (d->copies[i].end > hi) hi = d->copies[i].end;
    }
    s->gpu_span_ns = hi > lo ? (double)(hi - lo) : 0;
    rc |= build_table(items, d->nkernels, &s->kernels);

    cc_prof_mark_nested(d);
    size_t n = 0;
    for (size_t i = 0; i < d->napis; i++) {
        if (d->apis[i].nested) {
            s->nested_driver_calls++;
            continue;
        }
        items[n++] = (item){cc_prof_str(d, d->apis[i].function),
                            dur(d->apis[i].start, d->apis[i].end), 0};
    }
    rc |= build_table(items, n, &s->apis);

    for (size_t i = 0; i < d->ncopies; i++)
        items[i] = (item){cc_prof_memop_name(d->copies[i].op, d->copies[i].direction),
                          dur(d->copies[i].start, d->copies[i].end), (double)d->copies[i].bytes};
    rc |= build_table(items, d->ncopies, &s->mem_time);
    for (size_t i = 0; i < d->ncopies; i++)
        items[i] = (item){cc_prof_memop_name(d->copies[i].op, d->copies[i].direction),
                          (double)d->copies[i].bytes, dur(d->copies[i].start, d->copies[i].end)};
    rc |= build_table(items, d->ncopies, &s->mem_size);

    for (size_t i = 0; i < d->nranges; i++)
        items[i] = (item){range_key(d, &d->ranges[i]),
                          dur(d->ranges[i].start, d->ranges[i].end), 0};
    rc |= build_table(items, d->nranges, &s->nvtx);
    free(items);

    rc |= build_launches(d, s);
    if (rc) {
        cc_prof_stats_free(s);
        return -1;
    }
    return 0;
}

void cc_prof_stats_free(cc_prof_stats *s)
{
    free(s->kernels.rows);
    free(s->apis.rows);
    free(s->mem_time.rows);
    free(s->mem_size.rows);
    free(s->nvtx.rows);
    free(s->launches);
    memset(s, 0, sizeof *s);
}
