/* Round trips of the profile backend's event kinds (kernel_activity … activity_lost) through the
 * binary .cuevt codec and the text scenario form, compared field by field with the shared
 * samples; plus a hand-written scenario line of each kind. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/evtio.h"
#include "test_evtio_samples.h"

static const uint32_t profile_kinds[] = {
    CC_EV_KERNEL_ACTIVITY, CC_EV_COPY_ACTIVITY, CC_EV_API_CALL,     CC_EV_NVTX_RANGE,
    CC_EV_SYNC_ACTIVITY,   CC_EV_CLOCK_SYNC,    CC_EV_DEVICE_LIMITS, CC_EV_ACTIVITY_LOST,
};
#define NKINDS (sizeof profile_kinds / sizeof profile_kinds[0])

static void pick(cc_event *out)
{
    cc_event *all = calloc(CC_EV_KIND_COUNT, sizeof *all);
    size_t n = sample_events(all);
    for (size_t i = 0; i < NKINDS; i++) {
        CHECK(profile_kinds[i] - 1 < n);
        out[i] = all[profile_kinds[i] - 1];
        CHECK_EQ_U64(out[i].h.kind, profile_kinds[i]);
    }
    free(all); /* the samples' strings are literals: the copies stay valid */
}

static void expect_all(cc_evt_reader *r, const cc_event *want, const char *what)
{
    char err[256], why[256];
    cc_event ev;
    for (size_t i = 0; i < NKINDS; i++) {
        int rc = cc_evt_read(r, &ev, err, sizeof err);
        CHECK_EQ_U64(rc, 1);
        if (rc != 1) {
            fprintf(stderr, "%s: event %zu: %s\n", what, i, rc < 0 ? err : "early end");
            return;
        }
        if (!events_equal(&want[i], &ev, why, sizeof why)) {
            fprintf(stderr, "%s: %s: %s\n", what, cc_event_kind_name(want[i].h.kind), why);
            CHECK(0);
        }
    }
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 0);
}

static void test_binary(const cc_event *ev)
{
    unsigned char buf[8192];
    size_t len = 48;
    memset(buf, 0, 48);
    memcpy(buf, "CUEVT\0\r\n", 8);
    buf[8] = 1;
    buf[12] = 48;
    for (size_t i = 0; i < NKINDS; i++) {
        size_t k = cc_evt_encode(&ev[i], buf + len, sizeof buf - len);
        CHECK(k > 8);
        len += k;
    }
    char err[256];
    cc_evt_reader *r = cc_evt_reader_open_mem(buf, len, 0, err, sizeof err);
    CHECK(r != NULL);
    if (r) expect_all(r, ev, "binary");
    cc_evt_reader_close(r);
}

static void test_text(const cc_event *ev)
{
    char *text = NULL;
    size_t tlen = 0;
    FILE *f = open_memstream(&text, &tlen);
    for (size_t i = 0; i < NKINDS; i++) cc_scenario_write_event(f, &ev[i]);
    fclose(f);
    char err[256];
    cc_evt_reader *r = cc_evt_reader_open_mem(text, tlen, 1, err, sizeof err);
    CHECK(r != NULL);
    if (r) expect_all(r, ev, "text");
    cc_evt_reader_close(r);
    free(text);
}

static void test_hand_written(void)
{
    static const char scn[] =
        "kernel_activity start=100 end=250 name=k grid=4 block=128 registers=32 correlation=7 "
        "stream=s1\n"
        "copy_activity op=1 direction=h2d src_kind=pageable dst_kind=device bytes=4096 "
        "start=1 end=2\n"
        "api_call api=runtime function=cudaLaunchKernel cbid=211 start=90 end=95 correlation=7\n"
        "nvtx_range name=\"forward pass\" start=1 end=400 id=3 tid=5\n"
        "clock_sync wall_ns=1700000000000000000 mono_ns=10 rank=3 host=n1\n";
    char err[256];
    cc_evt_reader *r = cc_evt_reader_open_mem(scn, sizeof scn - 1, 1, err, sizeof err);
    CHECK(r != NULL);
    if (!r) return;
    cc_event ev;
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 1);
    CHECK_EQ_U64(ev.h.kind, CC_EV_KERNEL_ACTIVITY);
    CHECK_EQ_U64(ev.u.kernel_activity.end - ev.u.kernel_activity.start, 150);
    CHECK_EQ_U64(ev.u.kernel_activity.grid[1], 1);
    CHECK_EQ_U64(ev.u.kernel_activity.correlation, 7);
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 1);
    CHECK_EQ_U64(ev.u.copy_activity.direction, CC_COPY_H2D);
    CHECK_EQ_U64(ev.u.copy_activity.src_kind, CC_MEM_HOST_PAGEABLE);
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 1);
    CHECK_EQ_U64(ev.u.api_call.api, CC_API_RUNTIME);
    CHECK_STR(ev.u.api_call.function, "cudaLaunchKernel");
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 1);
    CHECK_STR(ev.u.nvtx_range.name, "forward pass");
    CHECK_EQ_U64(ev.h.tid, 5);
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 1);
    CHECK_EQ_U64(ev.u.clock_sync.rank, 3);
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 0);
    cc_evt_reader_close(r);

    static const char bad[] = "api_call function=x corelation=1\n";
    r = cc_evt_reader_open_mem(bad, sizeof bad - 1, 1, err, sizeof err);
    CHECK(r != NULL);
    if (r) {
        CHECK(cc_evt_read(r, &ev, err, sizeof err) == -1);
        CHECK(strstr(err, "corelation") != NULL);
        cc_evt_reader_close(r);
    }
}

int main(void)
{
    cc_event ev[NKINDS];
    pick(ev);
    for (size_t i = 0; i < NKINDS; i++) CHECK(cc_event_kind_name(profile_kinds[i]) != NULL);
    CHECK_STR(cc_event_kind_name(CC_EV_KERNEL_ACTIVITY), "kernel_activity");
    test_binary(ev);
    test_text(ev);
    test_hand_written();
    TEST_MAIN_END();
}
