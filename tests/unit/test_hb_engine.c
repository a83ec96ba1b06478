/* Unit tests of the happens-before engine (src/core/hb_*.c) driven directly: vector clocks,
 * --mode access-set filtering, the --sync-copies and --merge-host-threads options on scenario
 * files, late access events, the recent-launch window, and bad or unknown input. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "core/evtio.h"
#include "core/hb_engine.h"

typedef struct counts {
    int issues, races, uaf, uba;
} counts;

static void on_issue(void *ctx, const cc_hb_issue *is)
{
    counts *c = ctx;
    c->issues++;
    if (is->kind == CC_HB_ISSUE_RACE) c->races++;
    if (is->kind == CC_HB_ISSUE_USE_AFTER_FREE) c->uaf++;
    if (is->kind == CC_HB_ISSUE_USE_BEFORE_ALLOC) c->uba++;
    CHECK(is->cur.op != NULL && is->prev.op != NULL);
    CHECK(is->lo < is->hi);
}

static cc_hb *engine(counts *c, uint32_t mode, int full_copies, int merge)
{
    memset(c, 0, sizeof *c);
    cc_hb_config cfg = {mode, merge, full_copies, on_issue, c, 0};
    return cc_hb_new(&cfg);
}

static void ev_launch(cc_hb *hb, uint64_t stream, uint64_t id)
{
    cc_event e;
    memset(&e, 0, sizeof e);
    e.h.kind = CC_EV_LAUNCH;
    e.u.launch.stream = stream;
    e.u.launch.launch_id = id;
    e.u.launch.name = "k";
    cc_hb_event(hb, &e);
}

static void ev_access(cc_hb *hb, uint64_t id, uint64_t addr, uint64_t size, uint32_t flags,
                      uint32_t source)
{
    cc_event e;
    memset(&e, 0, sizeof e);
    e.h.kind = CC_EV_ACCESS;
    e.u.access = (cc_ev_access){id, addr, size, flags, source};
    cc_hb_event(hb, &e);
}

static void ev_stream(cc_hb *hb, uint64_t stream, uint32_t flags)
{
    cc_event e;
    memset(&e, 0, sizeof e);
    e.h.kind = CC_EV_STREAM_CREATE;
    e.u.stream.stream = stream;
    e.u.stream.flags = flags;
    cc_hb_event(hb, &e);
}

static void test_vc(void)
{
    cc_hb_vc a = {0}, b = {0};
    CHECK_EQ_U64(cc_hb_vc_get(&a, 5), 0);
    CHECK_EQ_U64(cc_hb_vc_tick(&a, 3), 1);
    CHECK_EQ_U64(cc_hb_vc_tick(&a, 3), 2);
    CHECK(cc_hb_vc_set(&b, 7, 9) == 0);
    CHECK(cc_hb_vc_join(&a, &b) == 0);
    CHECK_EQ_U64(cc_hb_vc_get(&a, 3), 2);
    CHECK_EQ_U64(cc_hb_vc_get(&a, 7), 9);
    CHECK(cc_hb_vc_copy(&b, &a) == 0);
    CHECK_EQ_U64(cc_hb_vc_get(&b, 3), 2);
    cc_hb_vc_free(&a);
    cc_hb_vc_free(&b);
}

/* Two non-blocking streams, one writer and one reader of the same bytes. */
static int race_with_sources(uint32_t mode, uint32_t src_w, uint32_t src_r)
{
    counts c;
    cc_hb *hb = engine(&c, mode, 0, 0);
    ev_stream(hb, 0x10, CC_STREAM_FLAG_NON_BLOCKING);
    ev_stream(hb, 0x20, CC_STREAM_FLAG_NON_BLOCKING);
    ev_launch(hb, 0x10, 1);
    ev_launch(hb, 0x20, 2);
    ev_access(hb, 1, 0x1000, 256, CC_ACCESS_FLAG_WRITE, src_w);
    ev_access(hb, 2, 0x1080, 256, CC_ACCESS_FLAG_READ, src_r);
    cc_hb_free(hb);
    return c.races;
}

static int replay(const char *name, uint32_t mode, int full_copies, int merge, counts *c);

static void test_modes(void)
{
    CHECK_EQ_U64(race_with_sources(CC_HB_MODE_DEFAULT, 1, 1), 1);
    CHECK_EQ_U64(race_with_sources(CC_HB_MODE_DEFAULT, 2, 3), 1);
    CHECK_EQ_U64(race_with_sources(CC_HB_MODE_FULL, 1, 1), 1);
    CHECK_EQ_U64(race_with_sources(CC_HB_MODE_FULL, 1, 3), 0); /* inferred ignored */
    CHECK_EQ_U64(race_with_sources(CC_HB_MODE_FULL, 2, 1), 0); /* learned ignored */
    CHECK_EQ_U64(race_with_sources(CC_HB_MODE_API, 3, 3), 1);
    CHECK_EQ_U64(race_with_sources(CC_HB_MODE_API, 1, 3), 0); /* only inferred sets */
    /* graph kernel nodes are not instrumented: full mode takes their inferred sets */
    counts c;
    CHECK(replay("graph_inferred_race.scn", CC_HB_MODE_FULL, 0, 0, &c) == 0);
    CHECK_EQ_U64(c.races, 1);
    CHECK(replay("graph_inferred_ok.scn", CC_HB_MODE_FULL, 0, 0, &c) == 0);
    CHECK_EQ_U64(c.issues, 0);
    /* and the inferred ranges of instrumented launches for allocations no patch saw touched */
    CHECK(replay("untouched_inferred_race.scn", CC_HB_MODE_FULL, 0, 0, &c) == 0);
    CHECK_EQ_U64(c.races, 1);
    CHECK(replay("untouched_inferred_ok.scn", CC_HB_MODE_FULL, 0, 0, &c) == 0);
    CHECK_EQ_U64(c.issues, 0);
}

/* Replays a scenario file of tests/scenarios/streamcheck through an engine. */
static int replay(const char *name, uint32_t mode, int full_copies, int merge, counts *c)
{
    char path[1024], err[256];
    snprintf(path, sizeof path, "%s/tests/scenarios/streamcheck/%s", CC_TEST_SOURCE_DIR, name);
    cc_evt_reader *r = cc_evt_reader_open(path, err, sizeof err);
    if (!r) {
        fprintf(stderr, "%s: %s\n", path, err);
        return -1;
    }
    cc_hb *hb = engine(c, mode, full_copies, merge);
    cc_event ev;
    int rc;
    while ((rc = cc_evt_read(r, &ev, err, sizeof err)) == 1) cc_hb_event(hb, &ev);
    if (rc < 0) fprintf(stderr, "%s: %s\n", path, err);
    cc_hb_free(hb);
    cc_evt_reader_close(r);
    return rc;
}

static void test_options_on_scenarios(void)
{
    counts c;
    /* CuSan 08: cudaMemcpy from pageable memory; CuSan's verdict (no race) with full copies */
    CHECK(replay("cusan_08_cudamemcpy_to_mpi.scn", 0, 0, 0, &c) == 0);
    CHECK_EQ_U64(c.races, 1);
    CHECK(replay("cusan_08_cudamemcpy_to_mpi.scn", 0, 1, 0, &c) == 0);
    CHECK_EQ_U64(c.issues, 0);
    /* host threads merged: thread 1's synchronize then orders thread 2's read */
    CHECK(replay("host_threads_race.scn", 0, 0, 0, &c) == 0);
    CHECK_EQ_U64(c.races, 1);
    CHECK(replay("host_threads_race.scn", 0, 0, 1, &c) == 0);
    CHECK_EQ_U64(c.issues, 0);
    /* stream-ordered allocation issue kinds */
    CHECK(replay("use_before_alloc_race.scn", 0, 0, 0, &c) == 0);
    CHECK_EQ_U64(c.uba, 1);
    CHECK(replay("use_after_free_async_race.scn", 0, 0, 0, &c) == 0);
    CHECK_EQ_U64(c.uaf, 1);
}

static void test_late_and_window(void)
{
    counts c;
    cc_hb *hb = engine(&c, 0, 0, 0);
    ev_stream(hb, 0x10, CC_STREAM_FLAG_NON_BLOCKING);
    ev_stream(hb, 0x20, CC_STREAM_FLAG_NON_BLOCKING);
    ev_launch(hb, 0x10, 1);
    for (uint64_t id = 2; id < 20002; id++) ev_launch(hb, 0x20, id);
    ev_access(hb, 1, 0x1000, 16, CC_ACCESS_FLAG_WRITE, 1);  /* launch 1 left the window */
    ev_access(hb, 20001, 0x1000, 16, CC_ACCESS_FLAG_WRITE, 1);
    ev_access(hb, 20000, 0x1000, 16, CC_ACCESS_FLAG_READ, 1); /* same stream: ordered */
    const cc_hb_stats *st = cc_hb_get_stats(hb);
    CHECK_EQ_U64(st->accesses_ignored, 1);
    CHECK_EQ_U64(st->launches, 20001);
    CHECK_EQ_U64(c.issues, 0);
    /* the earlier launch's access arrives last and still races with the other stream */
    ev_launch(hb, 0x10, 20002);
    ev_access(hb, 20002, 0x1008, 4, CC_ACCESS_FLAG_READ, 1);
    CHECK_EQ_U64(c.races, 1);
    cc_hb_free(hb);
}

static void test_bad_input(void)
{
    counts c;
    cc_hb *hb = engine(&c, 0, 0, 0);
    cc_event e;
    memset(&e, 0, sizeof e);
    ev_access(hb, 99, 0x1000, 16, CC_ACCESS_FLAG_WRITE, 1);                 /* unknown launch */
    ev_access(hb, 0, UINT64_MAX - 4, 100, CC_ACCESS_FLAG_WRITE, 1);         /* wraps */
    ev_access(hb, 0, 0x2000, 0, CC_ACCESS_FLAG_WRITE, 1);                   /* empty */
    ev_access(hb, 0, 0x2000, 16, 0, 1);                                     /* no access */
    ev_access(hb, 0x55, 0x2000, 16, CC_ACCESS_FLAG_READ | CC_ACCESS_FLAG_HOST_FUNC, 9);
    e.h.kind = CC_EV_FREE;
    e.u.free.address = 0x123;
    cc_hb_event(hb, &e);                                                   /* unknown free */
    memset(&e, 0, sizeof e);
    e.h.kind = CC_EV_CAPTURE_END;
    e.u.capture.stream = 0x77;
    cc_hb_event(hb, &e);                                                   /* end without begin */
    memset(&e, 0, sizeof e);
    e.h.kind = CC_EV_EVENT_WAIT;
    e.u.event.event = 0x99;
    e.u.event.stream = 0x77;
    cc_hb_event(hb, &e);                                                   /* unknown event */
    memset(&e, 0, sizeof e);
    e.h.kind = CC_EV_LAUNCH;
    e.u.launch.flags = CC_LAUNCH_FLAG_GRAPH_NODE;
    e.u.launch.graph_exec = 0x5;
    e.u.launch.launch_id = 7;
    cc_hb_event(hb, &e);                                                   /* graph never launched */
    memset(&e, 0, sizeof e);
    e.h.kind = CC_EV_ALLOC;
    e.u.alloc.address = UINT64_MAX - 8;
    e.u.alloc.size = 64;                                                   /* wraps */
    e.u.alloc.mem_kind = CC_MEM_DEVICE;
    cc_hb_event(hb, &e);
    e.h.kind = 9999;                                                       /* unknown kind */
    cc_hb_event(hb, &e);
    ev_access(hb, 7, UINT64_MAX - 16, 8, CC_ACCESS_FLAG_WRITE, 1);
    CHECK_EQ_U64(c.issues, 0);
    CHECK(!cc_hb_get_stats(hb)->out_of_memory);
    cc_hb_free(hb);
}

int main(void)
{
    test_vc();
    test_modes();
    test_options_on_scenarios();
    test_late_and_window();
    test_bad_input();
    TEST_MAIN_END();
}
