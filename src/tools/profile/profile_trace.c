/* The profile timeline as Chrome trace / Perfetto JSON: one process row per host process (a
 * track per CPU thread with its CUDA API calls and NVTX ranges, and one for synchronisations)
 * and one per GPU (a track per stream), with a flow arrow from each launching API call to the
 * kernel or copy it started. Events are written sorted by time, one per line, with timestamps
 * in microseconds relative to the start of the run; the first line carries the identity and
 * the wall-clock base that `cucheck merge` uses to put several ranks on one clock. Every line
 * starts {"pid":P,"tid":T[,"ts":X],"ph":"C"[,"id":N] — the merge rewrites just those fields. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "core/json.h"
#include "symbols/demangle.h"
#include "tools/profile/profile.h"

enum { T_META, T_API, T_NVTX, T_SYNC, T_KERNEL, T_COPY, T_FLOW_S, T_FLOW_F };

typedef struct {
    uint64_t t;         /* ns, absolute */
    uint32_t type;
    uint32_t track;     /* GPU tracks: index into tracks */
    size_t idx;         /* record index (flows: the GPU record) */
    uint64_t flow;      /* flow id */
    size_t api;         /* flows: the API record */
} tev;

typedef struct {
    int32_t device;
    uint64_t context, stream;
} track;

typedef struct {
    const cc_prof_data *d;
    uint64_t base;
    uint32_t pid;
    track *tracks;
    size_t ntracks;
    cc_demangle_cache *names; /* kernel names as shown */
} writer;

static uint32_t gpu_pid(const writer *w, int32_t device)
{
    return w->pid + (uint32_t)(device < 0 ? 0 : device + 1) * CC_PROF_GPU_PID_BASE;
}

static const char *kname(writer *w, uint32_t id)
{
    return cc_demangle_cached(w->names, cc_prof_str(w->d, id));
}

static int cmp_track(const void *a, const void *b)
{
    const track *x = a, *y = b;
    if (x->device != y->device) return x->device < y->device ? -1 : 1;
    if (x->context != y->context) return x->context < y->context ? -1 : 1;
    if (x->stream != y->stream) return x->stream < y->stream ? -1 : 1;
    return 0;
}

static uint32_t track_of(const writer *w, int32_t device, uint64_t context, uint64_t stream)
{
    track key = {device, context, stream};
    track *t = bsearch(&key, w->tracks, w->ntracks, sizeof key, cmp_track);
    return t ? (uint32_t)(t - w->tracks) : 0;
}

static int build_tracks(writer *w)
{
    const cc_prof_data *d = w->d;
    size_t n = d->nkernels + d->ncopies;
    w->tracks = malloc((n ? n : 1) * sizeof *w->tracks);
    if (!w->tracks) return -1;
    for (size_t i = 0; i < d->nkernels; i++)
        w->tracks[i] = (track){d->kernels[i].device, d->kernels[i].context, d->kernels[i].stream};
    for (size_t i = 0; i < d->ncopies; i++)
        w->tracks[d->nkernels + i] =
            (track){d->copies[i].device, d->copies[i].context, d->copies[i].stream};
    qsort(w->tracks, n, sizeof *w->tracks, cmp_track);
    size_t u = 0;
    for (size_t i = 0; i < n; i++)
        if (u == 0 || cmp_track(&w->tracks[u - 1], &w->tracks[i]) != 0) w->tracks[u++] = w->tracks[i];
    w->ntracks = u;
    return 0;
}

static int cmp_tev(const void *a, const void *b)
{
    const tev *x = a, *y = b;
    if (x->t != y->t) return x->t < y->t ? -1 : 1;
    if (x->type != y->type) return x->type < y->type ? -1 : 1;
    if (x->idx != y->idx) return x->idx < y->idx ? -1 : 1;
    return x->flow < y->flow ? -1 : x->flow > y->flow;
}

/* API records sorted by correlation (then outer calls first), for the flow arrows. */
static int cmp_api_corr(const void *a, const void *b, void *arg)
{
    const cc_prof_data *d = arg;
    const cc_prof_api *x = &d->apis[*(const size_t *)a];
    const cc_prof_api *y = &d->apis[*(const size_t *)b];
    if (x->corr != y->corr) return x->corr < y->corr ? -1 : 1;
    if (x->nested != y->nested) return x->nested - y->nested;
    return x->start < y->start ? -1 : x->start > y->start;
}

static long find_api(const cc_prof_data *d, const size_t *by_corr, uint64_t corr)
{
    size_t lo = 0, hi = d->napis;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->apis[by_corr[mid]].corr < corr) lo = mid + 1;
        else hi = mid;
    }
    return lo < d->napis && d->apis[by_corr[lo]].corr == corr ? (long)by_corr[lo] : -1;
}

static double us(const writer *w, uint64_t t)
{
    return ((double)t - (double)w->base) / 1000.0;
}

static void x_head(FILE *out, const writer *w, uint32_t pid, uint64_t tid, uint64_t start,
                   uint64_t end, const char *cat, const char *name)
{
    fprintf(out, "{\"pid\":%u,\"tid\":%" PRIu64 ",\"ts\":%.3f,\"ph\":\"X\",\"dur\":%.3f,\"cat\":\"%s\",\"name\":",
            pid, tid, us(w, start), (double)(end - start) / 1000.0, cat);
    cc_json_write_str(out, name);
}

static const char *sync_name(uint32_t type)
{
    switch (type) {
    case CC_SYNC_EVENT: return "Event synchronize";
    case CC_SYNC_STREAM_WAIT_EVENT: return "Stream wait event";
    case CC_SYNC_STREAM: return "Stream synchronize";
    case CC_SYNC_CONTEXT: return "Context synchronize";
    default: return "Synchronize";
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void write_meta(FILE *out, writer *w, int *first)
{
    const cc_prof_data *d = w->d;
    char label[512];
    const char *prog = cc_prof_str(d, d->program);
    int rank = d->has_clock ? d->clock.rank : -1;
#define SEP() (*first ? (void)(*first = 0) : (void)fputs(",\n", out))
    if (rank >= 0) snprintf(label, sizeof label, "rank %d: pid %u %s", rank, w->pid, prog);
    else snprintf(label, sizeof label, "pid %u %s", w->pid, prog);
    SEP();
    fprintf(out, "{\"pid\":%u,\"tid\":0,\"ph\":\"M\",\"name\":\"process_name\",\"args\":{\"name\":",
            w->pid);
    cc_json_write_str(out, label);
    fputs("}}", out);
    SEP();
    fprintf(out, "{\"pid\":%u,\"tid\":0,\"ph\":\"M\",\"name\":\"process_sort_index\",\"args\":"
                 "{\"sort_index\":0}}", w->pid);
    /* CPU threads: every tid that made an API call or an NVTX range */
    uint32_t *tids = malloc((d->napis + d->nranges + 1) * sizeof *tids);
    size_t nt = 0;
    if (tids) {
        for (size_t i = 0; i < d->napis; i++) tids[nt++] = d->apis[i].tid;
        for (size_t i = 0; i < d->nranges; i++) tids[nt++] = d->ranges[i].tid;
        /* Sorted and de-duplicated: every thread gets its name. (A quadratic search, cut off
         * after 4096 entries, named only the first thread of any large trace.) */
        qsort(tids, nt, sizeof *tids, cmp_u32);
        for (size_t i = 0; i < nt; i++) {
            if (i > 0 && tids[i] == tids[i - 1]) continue;
            SEP();
            fprintf(out, "{\"pid\":%u,\"tid\":%u,\"ph\":\"M\",\"name\":\"thread_name\",\"args\":"
                         "{\"name\":\"%s %u\"}}",
                    w->pid, tids[i], tids[i] == w->pid ? "Main thread" : "Thread", tids[i]);
        }
        free(tids);
    }
    if (d->nsyncs) {
        SEP();
        fprintf(out, "{\"pid\":%u,\"tid\":%u,\"ph\":\"M\",\"name\":\"thread_name\",\"args\":"
                     "{\"name\":\"CUDA synchronization\"}}", w->pid, CC_PROF_SYNC_TID);
    }
    int32_t last_dev = -2;
    for (size_t i = 0; i < w->ntracks; i++) {
        const track *t = &w->tracks[i];
        uint32_t gp = gpu_pid(w, t->device);
        if (t->device != last_dev) {
            last_dev = t->device;
            const cc_prof_device *dev = cc_prof_find_device(d, t->device);
            const char *dn = dev ? cc_prof_str(d, dev->name) : "";
            if (rank >= 0)
                snprintf(label, sizeof label, "rank %d: GPU %d%s%s (pid %u)", rank, t->device,
                         *dn ? " " : "", dn, w->pid);
            else
                snprintf(label, sizeof label, "GPU %d%s%s (pid %u)", t->device, *dn ? " " : "",
                         dn, w->pid);
            SEP();
            fprintf(out, "{\"pid\":%u,\"tid\":0,\"ph\":\"M\",\"name\":\"process_name\",\"args\":"
                         "{\"name\":", gp);
            cc_json_write_str(out, label);
            fputs("}}", out);
            SEP();
            fprintf(out, "{\"pid\":%u,\"tid\":0,\"ph\":\"M\",\"name\":\"process_sort_index\","
                         "\"args\":{\"sort_index\":%d}}", gp, t->device + 1);
        }
        int multi_ctx = (i > 0 && w->tracks[i - 1].device == t->device &&
                         w->tracks[i - 1].context != t->context) ||
                        (i + 1 < w->ntracks && w->tracks[i + 1].device == t->device &&
                         w->tracks[i + 1].context != t->context);
        if (multi_ctx)
            snprintf(label, sizeof label, "Stream %" PRIu64 " (context %" PRIu64 ")", t->stream,
                     t->context);
        else
            snprintf(label, sizeof label, "Stream %" PRIu64, t->stream);
        SEP();
        fprintf(out, "{\"pid\":%u,\"tid\":%zu,\"ph\":\"M\",\"name\":\"thread_name\",\"args\":"
                     "{\"name\":\"%s\"}}", gp, i + 1, label);
        SEP();
        fprintf(out, "{\"pid\":%u,\"tid\":%zu,\"ph\":\"M\",\"name\":\"thread_sort_index\","
                     "\"args\":{\"sort_index\":%zu}}", gp, i + 1, i + 1);
    }
}

static void write_event(FILE *out, writer *w, const tev *e)
{
    const cc_prof_data *d = w->d;
    switch (e->type) {
    case T_API: {
        const cc_prof_api *a = &d->apis[e->idx];
        x_head(out, w, w->pid, a->tid, a->start, a->end,
               a->api == CC_API_DRIVER ? "cuda_driver" : "cuda_runtime",
               cc_prof_str(d, a->function));
        fprintf(out, ",\"args\":{\"correlation\":%" PRIu64 ",\"result\":%d}}", a->corr, a->result);
        break;
    }
    case T_NVTX: {
        const cc_prof_range *r = &d->ranges[e->idx];
        x_head(out, w, w->pid, r->tid, r->start, r->end, "nvtx", cc_prof_str(d, r->name));
        fputs(",\"args\":{\"domain\":", out);
        cc_json_write_str(out, cc_prof_str(d, r->domain));
        fprintf(out, ",\"id\":%" PRIu64 "}}", r->id);
        break;
    }
    case T_SYNC: {
        const cc_prof_sync *s = &d->syncs[e->idx];
        x_head(out, w, w->pid, CC_PROF_SYNC_TID, s->start, s->end, "cuda_sync",
               sync_name(s->type));
        fprintf(out, ",\"args\":{\"stream\":%" PRIu64 ",\"event\":%" PRIu64
                     ",\"correlation\":%" PRIu64 "}}", s->stream, s->event, s->corr);
        break;
    }
    case T_KERNEL: {
        const cc_prof_kernel *k = &d->kernels[e->idx];
        x_head(out, w, gpu_pid(w, k->device), e->track + 1, k->start, k->end, "kernel",
               kname(w, k->name));
        fprintf(out, ",\"args\":{\"device\":%d,\"context\":%" PRIu64 ",\"stream\":%" PRIu64
                     ",\"correlation\":%" PRIu64 ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],"
                     "\"registers per thread\":%u,\"static shared memory\":%u,"
                     "\"dynamic shared memory\":%u,\"local memory per thread\":%u",
                k->device, k->context, k->stream, k->corr, k->grid[0], k->grid[1], k->grid[2],
                k->block[0], k->block[1], k->block[2], k->regs, k->static_smem, k->dynamic_smem,
                k->local_mem);
        if (k->graph) fprintf(out, ",\"graph\":%" PRIu64, k->graph);
        fputs("}}", out);
        break;
    }
    case T_COPY: {
        const cc_prof_copy *c = &d->copies[e->idx];
        double ns = (double)(c->end - c->start);
        x_head(out, w, gpu_pid(w, c->device), e->track + 1, c->start, c->end,
               c->op == CC_COPY_OP_MEMSET ? "gpu_memset" : "gpu_memcpy",
               cc_prof_memop_name(c->op, c->direction));
        fprintf(out, ",\"args\":{\"device\":%d,\"stream\":%" PRIu64 ",\"correlation\":%" PRIu64
                     ",\"bytes\":%" PRIu64 ",\"bandwidth (GB/s)\":%.3f",
                c->device, c->stream, c->corr, c->bytes, ns > 0 ? (double)c->bytes / ns : 0.0);
        const char *sk = cc_mem_kind_name(c->src_kind), *dk = cc_mem_kind_name(c->dst_kind);
        if (c->op != CC_COPY_OP_MEMSET && sk) fprintf(out, ",\"src\":\"%s\"", sk);
        if (dk) fprintf(out, ",\"dst\":\"%s\"", dk);
        fputs("}}", out);
        break;
    }
    case T_FLOW_S: {
        const cc_prof_api *a = &d->apis[e->api];
        fprintf(out, "{\"pid\":%u,\"tid\":%u,\"ts\":%.3f,\"ph\":\"s\",\"id\":%" PRIu64
                     ",\"cat\":\"ac2g\",\"name\":\"ac2g\"}",
                w->pid, a->tid, us(w, a->start), e->flow);
        break;
    }
    case T_FLOW_F: {
        uint64_t start = e->idx < d->nkernels ? d->kernels[e->idx].start
                                              : d->copies[e->idx - d->nkernels].start;
        int32_t dev = e->idx < d->nkernels ? d->kernels[e->idx].device
                                           : d->copies[e->idx - d->nkernels].device;
        fprintf(out, "{\"pid\":%u,\"tid\":%u,\"ts\":%.3f,\"ph\":\"f\",\"id\":%" PRIu64
                     ",\"bp\":\"e\",\"cat\":\"ac2g\",\"name\":\"ac2g\"}",
                gpu_pid(w, dev), e->track + 1, us(w, start), e->flow);
        break;
    }
    default: break;
    }
}

static void write_first_line(FILE *out, const writer *w)
{
    const cc_prof_data *d = w->d;
    uint64_t wall = cc_prof_wall_of(d, w->base);
    fprintf(out, "{\"cucheck\":{\"format\":1,\"pid\":%u,\"rank\":%d,\"host\":", w->pid,
            d->has_clock ? d->clock.rank : -1);
    cc_json_write_str(out, cc_prof_str(d, d->host));
    fputs(",\"program\":", out);
    cc_json_write_str(out, cc_prof_str(d, d->program));
    fprintf(out, ",\"base_mono_ns\":%" PRIu64 ",\"base_wall_ns\":%" PRIu64
                 ",\"has_wall_clock\":%s,\"dropped_records\":%" PRIu64 "},"
                 "\"baseTimeNanoseconds\":%" PRIu64 ",\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n",
            w->base, wall, d->has_clock ? "true" : "false", d->dropped, wall);
}

int cc_prof_write_trace(FILE *out, const cc_prof_data *d, cc_demangle_cache *kernel_names)
{
    cc_demangle_cache *own = kernel_names ? NULL : cc_demangle_cache_new();
    writer w = {d, 0, d->pid, NULL, 0, kernel_names ? kernel_names : own};
    size_t n = d->napis + d->nranges + d->nsyncs + 3 * (d->nkernels + d->ncopies);
    tev *ev = malloc((n ? n : 1) * sizeof *ev);
    size_t *by_corr = malloc((d->napis ? d->napis : 1) * sizeof *by_corr);
    if (!ev || !by_corr || build_tracks(&w) != 0) {
        free(ev);
        free(by_corr);
        free(w.tracks);
        cc_demangle_cache_free(own);
        return -1;
    }
    uint64_t base = d->first_ts ? d->first_ts : UINT64_MAX;
    size_t m = 0;
    for (size_t i = 0; i < d->napis; i++) ev[m++] = (tev){d->apis[i].start, T_API, 0, i, 0, 0};
    for (size_t i = 0; i < d->nranges; i++)
        ev[m++] = (tev){d->ranges[i].start, T_NVTX, 0, i, 0, 0};
    for (size_t i = 0; i < d->nsyncs; i++) ev[m++] = (tev){d->syncs[i].start, T_SYNC, 0, i, 0, 0};
    for (size_t i = 0; i < d->napis; i++) by_corr[i] = i;
    qsort_r(by_corr, d->napis, sizeof *by_corr, cmp_api_corr, (void *)d);
    uint64_t flow = 0;
    for (size_t i = 0; i < d->nkernels + d->ncopies; i++) {
        int is_k = i < d->nkernels;
        const cc_prof_kernel *k = is_k ? &d->kernels[i] : NULL;
        const cc_prof_copy *c = is_k ? NULL : &d->copies[i - d->nkernels];
        uint64_t start = is_k ? k->start : c->start;
        uint64_t corr = is_k ? k->corr : c->corr;
        uint32_t tr = is_k ? track_of(&w, k->device, k->context, k->stream)
                           : track_of(&w, c->device, c->context, c->stream);
        ev[m++] = (tev){start, is_k ? T_KERNEL : T_COPY, tr, is_k ? i : i - d->nkernels, 0, 0};
        long a = corr ? find_api(d, by_corr, corr) : -1;
        if (a >= 0) {
            flow++;
            ev[m++] = (tev){d->apis[a].start, T_FLOW_S, 0, i, flow, (size_t)a};
            ev[m++] = (tev){start, T_FLOW_F, tr, i, flow, (size_t)a};
        }
    }
    for (size_t i = 0; i < m; i++)
        if (ev[i].t < base) base = ev[i].t;
    w.base = base == UINT64_MAX ? 0 : base;
    qsort(ev, m, sizeof *ev, cmp_tev);

    write_first_line(out, &w);
    int first = 1;
    write_meta(out, &w, &first);
    for (size_t i = 0; i < m; i++) {
        if (!first) fputs(",\n", out);
        first = 0;
        write_event(out, &w, &ev[i]);
    }
    fputs("\n]}\n", out);
    cc_demangle_cache_free(own);
    free(w.tracks);
    free(by_corr);
    free(ev);
    return ferror(out) ? -1 : 0;
}
