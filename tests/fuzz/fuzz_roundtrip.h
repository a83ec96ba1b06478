/* Invariants shared by the event-stream fuzz targets: an event that was read must survive
 * binary encode -> decode and text write -> parse unchanged (compared by its binary encoding),
 * or the target aborts. */
#ifndef CUCHECK_FUZZ_ROUNDTRIP_H
#define CUCHECK_FUZZ_ROUNDTRIP_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/evtio.h"

static unsigned char *fuzz_encode(const cc_event *ev, size_t *n)
{
    size_t cap = 48 + (1u << 16);
    unsigned char *buf = NULL;
    for (;;) {
        buf = malloc(cap);
        if (!buf) abort();
        memset(buf, 0, 48);
        memcpy(buf, "CUEVT\0\r\n", 8);
        buf[8] = 1;
        buf[12] = 48;
        size_t k = cc_evt_encode(ev, buf + 48, cap - 48);
        if (k) {
            *n = 48 + k;
            return buf;
        }
        free(buf);
        if (cap > (512u << 20)) abort(); /* an event read back must be encodable */
        cap *= 4;
    }
}

static void fuzz_fail(const char *what, const cc_event *ev)
{
    fprintf(stderr, "round trip through %s changed an event:\n", what);
    cc_scenario_write_event(stderr, ev);
    abort();
}

/* Read the single event of data (either form) and compare its encoding with want. */
static void fuzz_expect_same(const void *data, size_t n, int text, const unsigned char *want,
                             size_t want_n, const char *what, const cc_event *orig)
{
    char err[512];
    cc_evt_reader *r = cc_evt_reader_open_mem(data, n, text, err, sizeof err);
    cc_event ev;
    if (!r) abort();
    if (cc_evt_read(r, &ev, err, sizeof err) != 1) {
        fprintf(stderr, "%s: %s\n", what, err);
        fuzz_fail(what, orig);
    }
    size_t got_n;
    unsigned char *got = fuzz_encode(&ev, &got_n);
    if (got_n != want_n || memcmp(got, want, want_n) != 0) fuzz_fail(what, orig);
    if (cc_evt_read(r, &ev, err, sizeof err) != 0) fuzz_fail(what, orig);
    free(got);
    cc_evt_reader_close(r);
}

static void fuzz_check_event(const cc_event *ev)
{
    size_t n;
    unsigned char *bin = fuzz_encode(ev, &n);
    fuzz_expect_same(bin, n, 0, bin, n, "binary", ev);

    char *text = NULL;
    size_t tn = 0;
    FILE *f = open_memstream(&text, &tn);
    if (!f) abort();
    cc_scenario_write_event(f, ev);
    fclose(f);
    fuzz_expect_same(text, tn, 1, bin, n, "text", ev);
    free(text);
    free(bin);
}

/* Read every event of data in the given form, checking each; errors are fine, crashes not. */
static void fuzz_read_all(const unsigned char *data, size_t size, int text)
{
    char err[512];
    cc_evt_reader *r = cc_evt_reader_open_mem(data, size, text, err, sizeof err);
    if (!r) return;
    cc_event ev;
    int rc;
    while ((rc = cc_evt_read(r, &ev, err, sizeof err)) == 1) fuzz_check_event(&ev);
    if (rc < 0 && strncmp(err, text ? "line " : "offset ", text ? 5 : 7) != 0) {
        fprintf(stderr, "error without its position: %s\n", err);
        abort();
    }
    cc_evt_reader_close(r);
}

#endif
