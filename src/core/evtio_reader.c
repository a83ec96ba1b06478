/* Reading event streams: opens a file (a regular file, memory-mapped: core/input_file.h refuses
 * FIFOs and devices) or a memory buffer, tells the binary .cuevt form from the text scenario
 * form by the magic, and hands out one event at a time. Binary records are framed and
 * bounds-checked here (records of unknown kinds are skipped); payloads are decoded by
 * evtio_decode.c and text by scenario_parse.c. Errors are sticky: after -1 every call returns
 * the same message. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/evtio.h"
#include "core/evtio_internal.h"
#include "core/byteio.h"
#include "core/input_file.h"

struct cc_evt_reader {
    const unsigned char *data;
    size_t size, pos;
    cc_input_map map;        /* the mapped file (none for a memory buffer), closed on close */
    int text;
    int header_done;
    int failed;
    char saved[512];         /* the sticky error */
    cc_evt_arena arena;
    cc_scenario_parser *parser;
};

static void put_err(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

static int starts_like_cuevt(const unsigned char *d, size_t n)
{
    size_t k = n < 5 ? n : 5;
    return n > 0 && memcmp(d, "CUEVT", k) == 0;
}

static cc_evt_reader *make_reader(const unsigned char *data, size_t size, int text, char *err,
                                  size_t errlen)
{
    cc_evt_reader *r = calloc(1, sizeof *r);
    if (!r) {
        put_err(err, errlen, "out of memory");
        return NULL;
    }
    r->data = data;
    r->size = size;
    r->text = text < 0 ? !starts_like_cuevt(data, size) : text != 0;
    if (r->text) {
        r->parser = cc_scenario_parser_new((const char *)data, size);
        if (!r->parser) {
            free(r);
            put_err(err, errlen, "out of memory");
            return NULL;
        }
    }
    return r;
}

cc_evt_reader *cc_evt_reader_open_mem(const void *data, size_t size, int text, char *err,
                                      size_t errlen)
{
    if (!data && size) {
        put_err(err, errlen, "no input buffer");
        return NULL;
    }
    return make_reader(data ? data : (const void *)"", size, text, err, errlen);
}

cc_evt_reader *cc_evt_reader_open(const char *path, char *err, size_t errlen)
{
    char why[256], msg[512];
    cc_input_map m;
    if (cc_input_map_open(path, &m, why, sizeof why) != 0) {
        snprintf(msg, sizeof msg, "%s: %s", path, why);
        put_err(err, errlen, msg);
        return NULL;
    }
    cc_evt_reader *r = make_reader(m.data, m.size, -1, err, errlen);
    if (!r) {
        cc_input_map_close(&m);
        return NULL;
    }
    r->map = m;
    return r;
}

static int fail(cc_evt_reader *r, char *err, size_t errlen)
{
    r->failed = 1;
    put_err(err, errlen, r->saved);
    return -1;
}

static int read_file_header(cc_evt_reader *r, char *err, size_t errlen)
{
    size_t n = r->size < CC_EVT_MAGIC_LEN ? r->size : CC_EVT_MAGIC_LEN;
    if (memcmp(r->data, CC_EVT_MAGIC, n) != 0) {
        snprintf(r->saved, sizeof r->saved, "offset 0: bad magic: not a .cuevt file");
        return fail(r, err, errlen);
    }
    if (r->size < 16) {
        snprintf(r->saved, sizeof r->saved,
                 "offset %zu: truncated file header (%zu of %u bytes)", r->size, r->size,
                 CC_EVT_HEADER_SIZE);
        return fail(r, err, errlen);
    }
    uint32_t version = cc_get_u32le(r->data + 8);
    uint32_t hsize = cc_get_u32le(r->data + 12);
    if (version != CC_EVT_VERSION) {
        snprintf(r->saved, sizeof r->saved,
                 "offset 8: unsupported .cuevt version %u (this reader reads version %u)",
                 version, CC_EVT_VERSION);
        return fail(r, err, errlen);
    }
    if (hsize < CC_EVT_HEADER_SIZE || hsize > CC_EVT_MAX_HEADER_SIZE) {
        snprintf(r->saved, sizeof r->saved, "offset 12: bad header size %u (expected %u..%u)",
                 hsize, CC_EVT_HEADER_SIZE, CC_EVT_MAX_HEADER_SIZE);
        return fail(r, err, errlen);
    }
    if (r->size < hsize) {
        snprintf(r->saved, sizeof r->saved,
                 "offset %zu: truncated file header (%zu of %u bytes)", r->size, r->size, hsize);
        return fail(r, err, errlen);
    }
    r->pos = hsize;
    r->header_done = 1;
    return 0;
}

static int read_binary(cc_evt_reader *r, cc_event *ev, char *err, size_t errlen)
{
    if (!r->header_done && read_file_header(r, err, errlen)) return -1;
    for (;;) {
        size_t left = r->size - r->pos;
        if (left == 0) return 0;
        if (left < CC_EVT_RECORD_HEADER) {
            snprintf(r->saved, sizeof r->saved,
                     "offset %zu: truncated record header (%zu of %u bytes)", r->pos, left,
                     CC_EVT_RECORD_HEADER);
            return fail(r, err, errlen);
        }
        const unsigned char *h = r->data + r->pos;
        uint32_t kind = cc_get_u16le(h);
        uint32_t len = cc_get_u32le(h + 4);
        const char *kname = cc_event_kind_name(kind);
        if (len > CC_EVT_MAX_PAYLOAD) {
            snprintf(r->saved, sizeof r->saved,
                     "offset %zu: record length %u exceeds the limit of %u bytes", r->pos + 4,
                     len, CC_EVT_MAX_PAYLOAD);
            return fail(r, err, errlen);
        }
        if (len > left - CC_EVT_RECORD_HEADER) {
            snprintf(r->saved, sizeof r->saved,
                     "offset %zu: truncated %s record (kind %u): payload of %u bytes, %zu left",
                     r->pos, kname ? kname : "unknown", kind, len,
                     left - CC_EVT_RECORD_HEADER);
            return fail(r, err, errlen);
        }
        size_t payload = r->pos + CC_EVT_RECORD_HEADER;
        r->pos = payload + len;
        size_t nf;
        if (!cc_evt_fields(kind, &nf)) continue; /* unknown kind: skip (forward compatible) */
        cc_evt_arena_reset(&r->arena);
        if (cc_evt_decode_payload(kind, r->data + payload, len, payload, ev, &r->arena,
                                  r->saved, sizeof r->saved))
            return fail(r, err, errlen);
        return 1;
    }
}

int cc_evt_read(cc_evt_reader *r, cc_event *ev, char *err, size_t errlen)
{
    if (!r || !ev) {
        put_err(err, errlen, "no reader");
        return -1;
    }
    if (r->failed) return fail(r, err, errlen);
    if (!r->text) return read_binary(r, ev, err, errlen);
    cc_evt_arena_reset(&r->arena);
    int rc = cc_scenario_parser_next(r->parser, ev, &r->arena, r->saved, sizeof r->saved);
    if (rc < 0) return fail(r, err, errlen);
    return rc;
}

void cc_evt_reader_close(cc_evt_reader *r)
{
    if (!r) return;
    cc_input_map_close(&r->map);
    cc_scenario_parser_free(r->parser);
    cc_evt_arena_free(&r->arena);
    free(r);
}
