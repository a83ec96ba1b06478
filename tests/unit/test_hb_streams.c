/* Unit tests of how the happens-before engine names streams in a program with several devices
 * (src/core/hb_streams.c): one handle in two contexts, an event that names another context than
 * its stream's, events without a context, destroyed streams whose handle comes back,
 * synchronizations scoped to one device, the device of a launch and the issue's multi_device;
 * and copies between devices in the NULL stream (the synchronous cudaMemcpyPeer, cudaMemcpy
 * between two devices' memory), serialized with all work of the devices they involve. */
#include <stdint.h>
#include <string.h>

#include "check.h"
#include "core/hb_engine.h"

#define C0 0xc0u /* context of device 0 */
#define C1 0xc1u /* context of device 1 */
#define BUF 0x10000u

typedef struct seen {
    int races, multi;
    int32_t cur_device, prev_device;
} seen;

static void on_issue(void *ctx, const cc_hb_issue *is)
{
    seen *s = ctx;
    if (is->kind == CC_HB_ISSUE_RACE) s->races++;
    s->multi = is->multi_device;
    s->cur_device = is->cur.op->device;
    s->prev_device = is->prev.op->device;
}

static cc_hb *engine(seen *s)
{
    memset(s, 0, sizeof *s);
    cc_hb_config cfg = {CC_HB_MODE_DEFAULT, 0, 0, on_issue, s, 0};
    return cc_hb_new(&cfg);
}

static cc_event ev_of(uint32_t kind)
{
    cc_event e;
    memset(&e, 0, sizeof e);
    e.h.kind = kind;
    return e;
}

static void context(cc_hb *hb, uint64_t ctx, int32_t device)
{
    cc_event e = ev_of(CC_EV_CONTEXT_CREATE);
    e.u.context.context = ctx;
    e.u.context.device = device;
    cc_hb_event(hb, &e);
}

static void stream(cc_hb *hb, uint32_t kind, uint64_t ctx, uint64_t handle, uint32_t flags)
{
    cc_event e = ev_of(kind);
    e.u.stream.context = ctx;
    e.u.stream.stream = handle;
    e.u.stream.flags = flags;
    cc_hb_event(hb, &e);
}

/* A launch on (ctx, handle) that reads or writes BUF (launch device: device). */
static void kernel(cc_hb *hb, uint64_t ctx, int32_t device, uint64_t handle, uint64_t id,
                   uint32_t flags)
{
    cc_event e = ev_of(CC_EV_LAUNCH);
    e.u.launch.context = ctx;
    e.u.launch.device = device;
    e.u.launch.stream = handle;
    e.u.launch.launch_id = id;
    e.u.launch.name = "k";
    cc_hb_event(hb, &e);
    e = ev_of(CC_EV_ACCESS);
    e.u.access = (cc_ev_access){id, BUF, 256, flags, CC_ACCESS_SRC_UNKNOWN};
    cc_hb_event(hb, &e);
}

static void host_read(cc_hb *hb)
{
    cc_event e = ev_of(CC_EV_ACCESS);
    e.u.access = (cc_ev_access){0, BUF, 256, CC_ACCESS_FLAG_READ, CC_ACCESS_SRC_UNKNOWN};
    cc_hb_event(hb, &e);
}

static void record_wait(cc_hb *hb, uint64_t rctx, uint64_t rstream, uint64_t wctx,
                        uint64_t wstream)
{
    cc_event e = ev_of(CC_EV_EVENT_RECORD);
    e.u.event.context = rctx;
    e.u.event.event = 0xe1;
    e.u.event.stream = rstream;
    cc_hb_event(hb, &e);
    e = ev_of(CC_EV_EVENT_WAIT);
    e.u.event.context = wctx;
    e.u.event.event = 0xe1;
    e.u.event.stream = wstream;
    cc_hb_event(hb, &e);
}

static void sync_of(cc_hb *hb, uint32_t kind, uint64_t ctx, int32_t device)
{
    cc_event e = ev_of(kind);
    e.u.sync.context = ctx;
    e.u.sync.device = device;
    cc_hb_event(hb, &e);
}

#define W CC_ACCESS_FLAG_WRITE
#define R CC_ACCESS_FLAG_READ

/* One handle in two contexts: two streams, created or used without a creation event. */
static void test_same_handle(void)
{
    for (int created = 0; created < 2; created++) {
        seen s;
        cc_hb *hb = engine(&s);
        context(hb, C0, 0);
        context(hb, C1, 1);
        if (created) {
            stream(hb, CC_EV_STREAM_CREATE, C0, 5, CC_STREAM_FLAG_NON_BLOCKING);
            stream(hb, CC_EV_STREAM_CREATE, C1, 5, CC_STREAM_FLAG_NON_BLOCKING);
        }
        kernel(hb, C0, 0, 5, 1, W);
        kernel(hb, C1, 1, 5, 2, R);
        CHECK_EQ_U64(s.races, 1);
        CHECK_EQ_U64(s.multi, 1);
        CHECK_EQ_U64(s.cur_device, 1);
        CHECK_EQ_U64(s.prev_device, 0);
        cc_hb_free(hb);
    }
}

/* An event naming another context than its (created) stream's finds that stream; events
 * without a context find streams of known contexts (traces without contexts). */
static void test_other_context(void)
{
    seen s;
    cc_hb *hb = engine(&s);
    context(hb, C0, 0);
    context(hb, C1, 1);
    stream(hb, CC_EV_STREAM_CREATE, C0, 0x100, CC_STREAM_FLAG_NON_BLOCKING);
    kernel(hb, C1, 1, 0x100, 1, W); /* names device 1's context, runs on device 0's stream */
    kernel(hb, 0, 0, 0x100, 2, R);  /* names no context */
    kernel(hb, C0, 0, 0x100, 3, W);
    CHECK_EQ_U64(s.races, 0);
    cc_hb_free(hb);

    /* a stream only used (never created) in context C0 is not found from C1 */
    hb = engine(&s);
    kernel(hb, C0, 0, 0x100, 1, W);
    kernel(hb, C1, 0, 0x100, 2, R);
    CHECK_EQ_U64(s.races, 1);
    CHECK_EQ_U64(s.multi, 0); /* one device: reports do not name devices */
    cc_hb_free(hb);
}

/* A destroyed stream's handle names a new stream afterwards; the old one's work still counts
 * for its context's synchronize and legacy stream, not for another device's. */
static void test_destroy(void)
{
    seen s;
    cc_hb *hb = engine(&s);
    context(hb, C0, 0);
    context(hb, C1, 1);
    stream(hb, CC_EV_STREAM_CREATE, C0, 0x300, CC_STREAM_FLAG_NON_BLOCKING);
    kernel(hb, C0, 0, 0x300, 1, W);
    stream(hb, CC_EV_STREAM_DESTROY, C0, 0x300, 0);
    stream(hb, CC_EV_STREAM_CREATE, C0, 0x300, CC_STREAM_FLAG_NON_BLOCKING);
    kernel(hb, C0, 0, 0x300, 2, R);
    CHECK_EQ_U64(s.races, 1);
    cc_hb_free(hb);

    for (int which = 0; which < 3; which++) {
        hb = engine(&s);
        context(hb, C0, 0);
        context(hb, C1, 1);
        stream(hb, CC_EV_STREAM_CREATE, C0, 0x300, 0); /* blocking */
        kernel(hb, C0, 0, 0x300, 1, W);
        stream(hb, CC_EV_STREAM_DESTROY, C0, 0x300, 0);
        if (which == 0) sync_of(hb, CC_EV_DEVICE_SYNC, 0, 0);       /* its device */
        if (which == 1) sync_of(hb, CC_EV_CONTEXT_SYNC, C1, -1);    /* another device */
        if (which == 2) kernel(hb, C0, 0, CC_STREAM_LEGACY, 2, W);  /* its legacy stream */
        if (which < 2) host_read(hb);
        CHECK_EQ_U64(s.races, which == 1 ? 1 : 0);
        cc_hb_free(hb);
    }
}

/* Streams used before their context is announced learn its device (device-wide syncs by
 * device number); a launch's device is its context's where known. */
static void test_late_context(void)
{
    for (int dev = 0; dev < 2; dev++) {
        seen s;
        cc_hb *hb = engine(&s);
        kernel(hb, C1, 0, CC_STREAM_LEGACY, 1, W); /* launch says device 0, context: 1 */
        context(hb, C0, 0);
        context(hb, C1, 1);
        sync_of(hb, CC_EV_DEVICE_SYNC, 0, dev);
        kernel(hb, C0, 0, CC_STREAM_LEGACY, 2, R);
        CHECK_EQ_U64(s.races, dev == 1 ? 0 : 1);
        if (dev == 0) {
            CHECK_EQ_U64(s.prev_device, 0); /* the context was not known at the launch */
            CHECK_EQ_U64(s.multi, 1);
        }
        cc_hb_free(hb);
    }
    seen s;
    cc_hb *hb = engine(&s);
    context(hb, C1, 1);
    kernel(hb, C1, 0, 0x10, 1, W); /* the context's device wins over the launch's */
    kernel(hb, C1, 0, 0x20, 2, R);
    CHECK_EQ_U64(s.races, 1);
    CHECK_EQ_U64(s.prev_device, 1);
    CHECK_EQ_U64(s.multi, 0);
    cc_hb_free(hb);
}

/* A stream of device 1 waits for an event recorded on device 0's legacy stream. */
static void test_cross_device_event(void)
{
    seen s;
    cc_hb *hb = engine(&s);
    context(hb, C0, 0);
    context(hb, C1, 1);
    stream(hb, CC_EV_STREAM_CREATE, C1, 0x200, CC_STREAM_FLAG_NON_BLOCKING);
    kernel(hb, C0, 0, CC_STREAM_LEGACY, 1, W);
    record_wait(hb, C0, CC_STREAM_LEGACY, C1, 0x200);
    kernel(hb, C1, 1, 0x200, 2, R);
    kernel(hb, C1, 1, CC_STREAM_LEGACY, 3, R); /* device 1's legacy stream did not wait */
    CHECK_EQ_U64(s.races, 1);
    CHECK_EQ_U64(s.cur_device, 1);
    cc_hb_free(hb);
}

#define C2 0xc2u /* context of device 2 */
#define SRC 0x20000u /* on device 0 */
#define DST 0x30000u /* on device 1 */

static void alloc_on(cc_hb *hb, uint64_t ctx, int32_t device, uint64_t address)
{
    cc_event e = ev_of(CC_EV_ALLOC);
    e.u.alloc = (cc_ev_alloc){.context = ctx, .device = device, .mem_kind = CC_MEM_DEVICE,
                              .address = address, .size = 256};
    cc_hb_event(hb, &e);
}

/* A launch on (ctx, handle) whose access is [address, +256). */
static void launch_at(cc_hb *hb, uint64_t ctx, uint64_t handle, uint64_t id, uint64_t address,
                      uint32_t flags)
{
    cc_event e = ev_of(CC_EV_LAUNCH);
    e.u.launch.context = ctx;
    e.u.launch.stream = handle;
    e.u.launch.launch_id = id;
    e.u.launch.name = "k";
    cc_hb_event(hb, &e);
    e = ev_of(CC_EV_ACCESS);
    e.u.access = (cc_ev_access){id, address, 256, flags, CC_ACCESS_SRC_UNKNOWN};
    cc_hb_event(hb, &e);
}

/* SRC (device 0) to DST (device 1) on the legacy stream of ctx (the current device). */
static void copy_src_dst(cc_hb *hb, uint64_t ctx, uint32_t flags)
{
    cc_event e = ev_of(CC_EV_MEMCPY);
    e.u.memcpy = (cc_ev_memcpy){.context = ctx, .direction = CC_COPY_D2D, .flags = flags,
                                .src = SRC, .dst = DST, .size = 256,
                                .stream = CC_STREAM_LEGACY};
    cc_hb_event(hb, &e);
}

/* Three devices, each with a non-blocking stream (0x100, 0x200, 0x300), SRC and DST. */
static cc_hb *three_devices(seen *s)
{
    cc_hb *hb = engine(s);
    const uint64_t ctx[3] = {C0, C1, C2};
    for (int32_t d = 0; d < 3; d++) {
        context(hb, ctx[d], d);
        stream(hb, CC_EV_STREAM_CREATE, ctx[d], 0x100u * (uint64_t)(d + 1),
               CC_STREAM_FLAG_NON_BLOCKING);
    }
    alloc_on(hb, C0, 0, SRC);
    alloc_on(hb, C1, 1, DST);
    return hb;
}

#define PEER CC_COPY_FLAG_PEER_SYNC
#define ASYNC CC_COPY_FLAG_ASYNC

/* Device 0 writes SRC on a non-blocking stream, the copy (from current context cur) takes it
 * to DST, device 1 reads DST and device 0 rewrites SRC on their non-blocking streams, with no
 * event: ordered for the synchronous peer copy and for cudaMemcpy between the two devices, not
 * for an asynchronous copy. */
static void test_peer_copy_serialized(void)
{
    static const struct { uint64_t cur; uint32_t flags; int races; } cases[] = {
        {C1, PEER, 0}, {C0, PEER, 0}, {C2, PEER, 0}, /* any current device */
        {C1, 0, 0},                                   /* cudaMemcpy through unified addressing */
        {C1, ASYNC, 3},                               /* cudaMemcpyPeerAsync on the legacy stream */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        seen s;
        cc_hb *hb = three_devices(&s);
        launch_at(hb, C0, 0x100, 1, SRC, W);
        copy_src_dst(hb, cases[i].cur, cases[i].flags);
        launch_at(hb, C1, 0x200, 2, DST, R);
        launch_at(hb, C0, 0x100, 3, SRC, W);
        CHECK_EQ_U64(s.races, cases[i].races);
        cc_hb_free(hb);
    }
}

/* The current device counts for cudaMemcpyPeer only; a third device not named by the copy is
 * not ordered (before or after it); streams created after the copy wait for it; the host does
 * not (the copy is asynchronous with respect to the host). */
static void test_peer_copy_scope(void)
{
    for (int flags = 0; flags < 2; flags++) { /* device 2, current, wrote SRC before the copy */
        seen s;
        cc_hb *hb = three_devices(&s);
        launch_at(hb, C2, 0x300, 1, SRC, W);
        copy_src_dst(hb, C2, flags ? PEER : 0);
        CHECK_EQ_U64(s.races, flags ? 0 : 1);
        cc_hb_free(hb);
    }
    seen s;
    cc_hb *hb = three_devices(&s);
    copy_src_dst(hb, C1, PEER);
    launch_at(hb, C2, 0x300, 1, DST, R); /* device 2 is not serialized with the copy */
    CHECK_EQ_U64(s.races, 1);
    stream(hb, CC_EV_STREAM_CREATE, C1, 0x201, CC_STREAM_FLAG_NON_BLOCKING);
    launch_at(hb, C1, 0x201, 2, DST, W); /* a new stream of device 1: after the copy */
    CHECK_EQ_U64(s.races, 2);            /* (only against device 2's read) */
    CHECK_EQ_U64(s.prev_device, 2);
    cc_hb_free(hb);

    hb = three_devices(&s);
    copy_src_dst(hb, C1, PEER);
    cc_event e = ev_of(CC_EV_ACCESS);
    e.u.access = (cc_ev_access){0, DST, 256, R, CC_ACCESS_SRC_UNKNOWN};
    cc_hb_event(hb, &e);
    CHECK_EQ_U64(s.races, 1);
    cc_hb_free(hb);
}

int main(void)
{
    test_same_handle();
    test_other_context();
    test_destroy();
    test_late_context();
    test_cross_device_event();
    test_peer_copy_serialized();
    test_peer_copy_scope();
    TEST_MAIN_END();
}
