/* What names a stream in the happens-before engine, and the devices of contexts. A program with
 * several GPUs has a legacy default stream per device (context) and may, in traces that number
 * streams per device, use one handle on two devices: explicit streams are keyed by (context,
 * handle), the legacy stream by context, the per-thread stream by context and thread. An event
 * may name another context than its stream's (the Compute Sanitizer gives a copy between two
 * devices its destination's context with its source's stream), so a stream a STREAM_CREATE made
 * is also found by its handle alone. A destroyed stream's handle may come back for a new stream
 * (of any device); the old one's work still counts for its context's synchronizations. */
#include "core/hb_internal.h"

#include <stdlib.h>
#include <string.h>
#include "core/grow.h"

const hb_ctxdev *cc_hb_ctxdev_find(const cc_hb *hb, uint64_t context)
{
    for (size_t i = 0; i < hb->nctxdev; i++)
        if (hb->ctxdev[i].context == context) return &hb->ctxdev[i];
    return NULL;
}

hb_ctxdev *cc_hb_ctxdev(cc_hb *hb, uint64_t context)
{
    for (size_t i = 0; i < hb->nctxdev; i++)
        if (hb->ctxdev[i].context == context) return &hb->ctxdev[i];
    hb_ctxdev *cd = CC_ARRAY_PUSH(hb->ctxdev, hb->nctxdev, hb->cap_ctxdev);
    if (!cd) {
        hb->stats.out_of_memory = 1;
        return NULL;
    }
    memset(cd, 0, sizeof *cd);
    cd->context = context;
    return cd;
}

/* A context's device is known from its CONTEXT_CREATE; streams used before it learn it then. */
void cc_hb_note_context(cc_hb *hb, uint64_t context, int32_t device)
{
    hb_ctxdev *cd = cc_hb_ctxdev(hb, context);
    if (!cd) return;
    cd->device = device;
    cd->known = 1;
    for (size_t i = 0; i < hb->nstreams; i++)
        if (hb->streams[i].context == context) hb->streams[i].device = device;
}

static int32_t device_of(const cc_hb *hb, uint64_t context)
{
    const hb_ctxdev *cd = cc_hb_ctxdev_find(hb, context);
    return cd ? cd->device : 0;
}

/* The stream (context, handle) names: exact match first; for an explicit handle also (the
 * latest) one of another context that is unknown (0), was created explicitly, or any when the
 * event names no context (unless exact: creation). */
static hb_stream *find_stream(cc_hb *hb, uint64_t context, uint64_t handle, uint32_t tid,
                              int exact)
{
    int implicit = handle == CC_STREAM_LEGACY || handle == CC_STREAM_PER_THREAD;
    hb_stream *loose = NULL;
    for (size_t i = 0; i < hb->nstreams; i++) {
        hb_stream *s = &hb->streams[i];
        if (s->handle != handle) continue;
        if (handle == CC_STREAM_PER_THREAD && s->tid != tid) continue;
        if (s->context == context) return s;
        if (implicit) continue;
        if (s->context == 0 || (!exact && (context == 0 || s->created))) loose = s;
    }
    return loose;
}

static hb_stream *new_stream(cc_hb *hb, uint64_t context, uint64_t handle, uint32_t tid)
{
    hb_stream *s = CC_ARRAY_PUSH(hb->streams, hb->nstreams, hb->cap_streams);
    if (!s) return NULL;
    memset(s, 0, sizeof *s);
    s->context = context;
    s->handle = handle;
    s->per_thread = handle == CC_STREAM_PER_THREAD;
    s->tid = s->per_thread ? tid : 0;
    s->device = device_of(hb, context);
    s->legacy = handle == CC_STREAM_LEGACY;
    s->actor = cc_hb_new_actor(hb);
    return s;
}

/* A stream never created explicitly is blocking, as cudaStreamCreate makes it. */
hb_stream *cc_hb_stream(cc_hb *hb, uint64_t context, uint64_t handle, uint32_t tid)
{
    if (hb->cfg.merge_host_threads) tid = 0;
    hb_stream *s = find_stream(hb, context, handle, tid, 0);
    return s ? s : new_stream(hb, context, handle, tid);
}

hb_stream *cc_hb_stream_create(cc_hb *hb, uint64_t context, uint64_t handle, uint32_t tid)
{
    if (hb->cfg.merge_host_threads) tid = 0;
    hb_stream *s = find_stream(hb, context, handle, tid, 1);
    if (!s) s = new_stream(hb, context, handle, tid);
    if (s) s->created = 1;
    return s;
}

void cc_hb_stream_destroy(cc_hb *hb, uint64_t context, uint64_t handle, uint32_t tid)
{
    if (handle == CC_STREAM_LEGACY || handle == CC_STREAM_PER_THREAD) return;
    if (hb->cfg.merge_host_threads) tid = 0;
    hb_stream *s = find_stream(hb, context, handle, tid, 0);
    if (!s) return;
    hb_ctxdev *cd = cc_hb_ctxdev(hb, s->context);
    if (cd && cc_hb_vc_join(&cd->retired_all, &s->vc)) hb->stats.out_of_memory = 1;
    if (cd && !s->non_blocking && cc_hb_vc_join(&cd->retired_blocking, &s->vc))
        hb->stats.out_of_memory = 1;
    cc_hb_vc_free(&s->vc);
    *s = hb->streams[--hb->nstreams];
}

int cc_hb_multi_device(const cc_hb *hb, const cc_hb_op *a, const cc_hb_op *b)
{
    if (!a->on_host && !b->on_host && a->device != b->device) return 1;
    int have = 0;
    int32_t first = 0;
    for (size_t i = 0; i < hb->nctxdev; i++) {
        const hb_ctxdev *cd = &hb->ctxdev[i];
        if (!cd->known || cd->device < 0) continue;
        if (have && cd->device != first) return 1;
        first = cd->device;
        have = 1;
    }
    return 0;
}

void cc_hb_free_streams(cc_hb *hb)
{
    for (size_t i = 0; i < hb->nstreams; i++) cc_hb_vc_free(&hb->streams[i].vc);
    for (size_t i = 0; i < hb->nctxdev; i++) {
        cc_hb_vc_free(&hb->ctxdev[i].retired_all);
        cc_hb_vc_free(&hb->ctxdev[i].retired_blocking);
    }
    free(hb->streams);
    free(hb->ctxdev);
}
