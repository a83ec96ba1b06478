/* The .cuevt reader on damaged input: truncation at every byte offset, flipped and garbage
 * bytes, bad magic / version / header size, records of unknown kinds (skipped), payloads with
 * extra trailing bytes (ignored), oversized lengths; errors carry the offset and are sticky. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/evtio.h"
#include "test_evtio_samples.h"

typedef struct {
    unsigned char *buf;
    size_t len, cap;
    size_t bounds[64]; /* offsets where records end */
    size_t nbounds;
} file;

static void put_header(file *f)
{
    memset(f->buf, 0, 48);
    memcpy(f->buf, "CUEVT\0\r\n", 8);
    f->buf[8] = 1;
    f->buf[12] = 48;
    f->len = 48;
    f->nbounds = 0;
    f->bounds[f->nbounds++] = 48;
}

static void put_event(file *f, const cc_event *ev)
{
    size_t k = cc_evt_encode(ev, f->buf + f->len, f->cap - f->len);
    CHECK(k > 0);
    f->len += k;
    f->bounds[f->nbounds++] = f->len;
}

static void put_raw_record(file *f, uint16_t kind, const void *payload, uint32_t n)
{
    unsigned char *p = f->buf + f->len;
    p[0] = (unsigned char)kind;
    p[1] = (unsigned char)(kind >> 8);
    p[2] = p[3] = 0;
    for (int i = 0; i < 4; i++) p[4 + i] = (unsigned char)(n >> (8 * i));
    memcpy(p + 8, payload, n);
    f->len += 8 + n;
    f->bounds[f->nbounds++] = f->len;
}

/* Read everything; returns the number of events, or -1 - count on error (err filled). */
static long read_all(const void *data, size_t n, int text, char *err, size_t errlen)
{
    cc_evt_reader *r = cc_evt_reader_open_mem(data, n, text, err, errlen);
    if (!r) return -1000000;
    cc_event ev;
    long count = 0;
    int rc;
    while ((rc = cc_evt_read(r, &ev, err, errlen)) == 1) count++;
    if (rc < 0) {
        /* Sticky: the same error again. */
        char again[512];
        CHECK_EQ_U64(cc_evt_read(r, &ev, again, sizeof again), (uint64_t)-1);
        CHECK_STR(again, err);
        count = -1 - count;
    }
    cc_evt_reader_close(r);
    return count;
}

static void test_truncation(const file *f)
{
    char err[512];
    for (size_t cut = 0; cut < f->len; cut++) {
        long got = read_all(f->buf, cut, 0, err, sizeof err);
        size_t whole = 0; /* records complete before cut */
        int at_bound = 0;
        for (size_t b = 0; b < f->nbounds; b++) {
            if (f->bounds[b] <= cut) whole = b;
            if (f->bounds[b] == cut) at_bound = 1;
        }
        if (at_bound) {
            CHECK_EQ_U64(got, whole);
        } else {
            CHECK(got < 0);
            if (got >= 0) {
                fprintf(stderr, "cut at %zu: no error\n", cut);
            } else {
                CHECK_EQ_U64(-1 - got, whole);
                CHECK(strncmp(err, "offset ", 7) == 0);
            }
        }
    }
    CHECK_EQ_U64(read_all(f->buf, f->len, 0, err, sizeof err), f->nbounds - 1);
}

static void test_flips(const file *f)
{
    unsigned char *copy = malloc(f->len);
    char err[512];
    static const unsigned char patterns[] = { 0x01, 0x80, 0xff, 0x7f, 0x10 };
    long errors = 0;
    for (size_t i = 0; i < f->len; i++) {
        for (size_t p = 0; p < sizeof patterns; p++) {
            memcpy(copy, f->buf, f->len);
            copy[i] ^= patterns[p];
            long got = read_all(copy, f->len, -1, err, sizeof err);
            if (got < 0) errors++;
        }
    }
    CHECK(errors > 0);
    /* Pseudo-random garbage after a valid header, and fully random buffers. */
    unsigned seed = 12345;
    for (int round = 0; round < 2000; round++) {
        size_t n = 48 + (size_t)(round % 300);
        memcpy(copy, f->buf, 48);
        for (size_t i = (round & 1) ? 48 : 0; i < n && i < f->len; i++) {
            seed = seed * 1103515245u + 12345u;
            copy[i] = (unsigned char)(seed >> 16);
        }
        read_all(copy, n < f->len ? n : f->len, round % 3 - 1, err, sizeof err);
    }
    free(copy);
}

static void test_header_errors(void)
{
    unsigned char h[64];
    char err[512];
    memset(h, 0, sizeof h);
    memcpy(h, "CUEVT\0\r\n", 8);
    h[8] = 1;
    h[12] = 48;
    CHECK_EQ_U64(read_all(h, 48, -1, err, sizeof err), 0); /* header only: no events */

    h[8] = 2;
    CHECK(read_all(h, 48, -1, err, sizeof err) < 0);
    CHECK(strstr(err, "offset 8: unsupported .cuevt version 2") != NULL);
    h[8] = 1;

    h[12] = 16;
    CHECK(read_all(h, 48, -1, err, sizeof err) < 0);
    CHECK(strstr(err, "offset 12: bad header size 16") != NULL);
    h[12] = 64; /* a longer header (newer writer): its extra bytes are skipped */
    CHECK_EQ_U64(read_all(h, 64, -1, err, sizeof err), 0);
    CHECK(read_all(h, 60, -1, err, sizeof err) < 0);
    CHECK(strstr(err, "truncated file header (60 of 64 bytes)") != NULL);
    h[12] = 48;

    h[5] = 'X';
    CHECK(read_all(h, 48, 0, err, sizeof err) < 0);
    CHECK(strstr(err, "offset 0: bad magic") != NULL);
    h[5] = 0;

    CHECK(read_all(h, 10, -1, err, sizeof err) < 0);
    CHECK(strstr(err, "truncated file header") != NULL);
    CHECK(read_all("CUE", 3, -1, err, sizeof err) < 0); /* a prefix of the magic: binary */
    CHECK_EQ_U64(read_all("", 0, -1, err, sizeof err), 0);  /* empty: empty scenario */
    CHECK(read_all("\x89PNG", 4, 0, err, sizeof err) < 0);
}

static void test_unknown_and_extra(const cc_event *samples)
{
    file f = { malloc(4096), 0, 4096, { 0 }, 0 };
    char err[512];
    put_header(&f);
    const cc_event *launch = &samples[CC_EV_LAUNCH - 1];
    put_event(&f, launch);
    unsigned char junk[37];
    memset(junk, 0xee, sizeof junk);
    put_raw_record(&f, 999, junk, sizeof junk);          /* unknown kind: skipped */
    put_raw_record(&f, 0, junk, 5);                        /* kind 0 (none): skipped */
    put_raw_record(&f, CC_EV_KIND_COUNT, junk, 0);         /* unknown, empty payload */
    /* A known record with 3 extra bytes appended (fields of a newer writer): accepted. */
    unsigned char rec[2048];
    size_t k = cc_evt_encode(&samples[CC_EV_HOST_STACK - 1], rec, sizeof rec);
    CHECK(k > 8);
    rec[k] = 1, rec[k + 1] = 2, rec[k + 2] = 3;
    put_raw_record(&f, CC_EV_HOST_STACK, rec + 8, (uint32_t)(k - 8 + 3));
    put_event(&f, launch);

    cc_evt_reader *r = cc_evt_reader_open_mem(f.buf, f.len, -1, err, sizeof err);
    cc_event ev;
    char why[256];
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 1);
    CHECK(events_equal(launch, &ev, why, sizeof why));
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 1);
    CHECK(events_equal(&samples[CC_EV_HOST_STACK - 1], &ev, why, sizeof why));
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 1);
    CHECK(events_equal(launch, &ev, why, sizeof why));
    CHECK_EQ_U64(cc_evt_read(r, &ev, err, sizeof err), 0);
    cc_evt_reader_close(r);

    /* A known kind whose payload is too short for its fields: error at the right offset. */
    put_header(&f);
    put_raw_record(&f, CC_EV_LAUNCH, junk, 12); /* tid, timestamp only */
    CHECK(read_all(f.buf, f.len, -1, err, sizeof err) == -1);
    CHECK(strstr(err, "offset 68: launch record, field context") != NULL);
    if (!strstr(err, "offset 68:")) fprintf(stderr, "got: %s\n", err);

    /* A string length larger than the payload. */
    put_header(&f);
    unsigned char ps[4 + 8 + 4 + 4 + 4];
    memset(ps, 0, sizeof ps);
    ps[20] = 0xff; /* argv0 length 255, payload has 4 bytes after it */
    put_raw_record(&f, CC_EV_PROCESS_START, ps, sizeof ps);
    CHECK(read_all(f.buf, f.len, -1, err, sizeof err) == -1);
    CHECK(strstr(err, "offset 76: process_start record, field argv0: string longer") != NULL);

    /* A deps count far beyond the payload. */
    put_header(&f);
    unsigned char gn[12 + 8 + 8 + 4 + 4];
    memset(gn, 0, sizeof gn);
    gn[12 + 16 + 4 + 2] = 0x01; /* ndeps = 65536 */
    put_raw_record(&f, CC_EV_GRAPH_NODE, gn, sizeof gn);
    CHECK(read_all(f.buf, f.len, -1, err, sizeof err) == -1);
    CHECK(strstr(err, "field deps: count") != NULL);

    /* A record length over the limit. */
    put_header(&f);
    put_raw_record(&f, CC_EV_LAUNCH, junk, 0);
    f.buf[48 + 7] = 0x7f;
    CHECK(read_all(f.buf, f.len, -1, err, sizeof err) == -1);
    CHECK(strstr(err, "offset 52: record length") != NULL);
    free(f.buf);
}

int main(void)
{
    cc_event ev[CC_EV_KIND_COUNT];
    size_t n = sample_events(ev);
    /* A small file: a few records of different shapes. */
    file f = { malloc(8192), 0, 8192, { 0 }, 0 };
    put_header(&f);
    static const uint32_t pick[] = { CC_EV_PROCESS_START, CC_EV_LAUNCH, CC_EV_GRAPH_NODE,
                                     CC_EV_HOST_STACK, CC_EV_DEVICE_SYNC };
    for (size_t i = 0; i < sizeof pick / sizeof pick[0]; i++) put_event(&f, &ev[pick[i] - 1]);
    CHECK(n > 0);
    test_truncation(&f);
    test_flips(&f);
    test_header_errors();
    test_unknown_and_extra(ev);
    free(f.buf);
    TEST_MAIN_END();
}
