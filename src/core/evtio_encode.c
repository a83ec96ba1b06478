/* Encoding events as .cuevt version 1 records (docs/formats.md, section "cuevt"): a record is
 * u16 kind, u16 flags, u32 payload length, then the payload: u32 tid, u64 timestamp and the
 * kind's fields in field-table order, all little-endian. Strings longer than CC_EVT_MAX_STRING
 * and arrays longer than their caps are truncated to the cap. Also the file header. */
#include <string.h>
#include "core/evtio.h"
#include "core/evtio_internal.h"
#include "core/byteio.h"

typedef struct enc {
    unsigned char *buf; /* NULL: only measure */
    size_t cap, pos;
} enc;

static void put(enc *e, const void *src, size_t n)
{
    if (e->buf && e->pos <= e->cap && n <= e->cap - e->pos) memcpy(e->buf + e->pos, src, n);
    e->pos += n;
}

static void put_u32(enc *e, uint32_t v)
{
    unsigned char b[4];
    cc_put_u32le(b, v);
    put(e, b, 4);
}

static void put_u64(enc *e, uint64_t v)
{
    unsigned char b[8];
    cc_put_u64le(b, v);
    put(e, b, 8);
}

static void put_str(enc *e, const char *s)
{
    size_t n = s ? strnlen(s, CC_EVT_MAX_STRING) : 0;
    put_u32(e, (uint32_t)n);
    put(e, s, n);
}

static void put_fields(enc *e, const cc_event *ev, const cc_evt_field *f, size_t nf)
{
    const char *base = (const char *)ev;
    for (size_t i = 0; i < nf; i++) {
        const char *p = base + f[i].off;
        switch (f[i].type) {
        case CC_FT_U32: case CC_FT_I32: case CC_FT_HEX32: case CC_FT_ENUM: {
            uint32_t v;
            memcpy(&v, p, 4);
            put_u32(e, v);
            break;
        }
        case CC_FT_U64: case CC_FT_ADDR: case CC_FT_HANDLE: case CC_FT_STREAM: {
            uint64_t v;
            memcpy(&v, p, 8);
            put_u64(e, v);
            break;
        }
        case CC_FT_STR: {
            const char *s;
            memcpy(&s, p, sizeof s);
            put_str(e, s);
            break;
        }
        case CC_FT_DIM3: {
            uint32_t v[3];
            memcpy(v, p, sizeof v);
            for (int k = 0; k < 3; k++) put_u32(e, v[k]);
            break;
        }
        case CC_FT_DEPS: {
            const uint64_t *deps;
            uint32_t n;
            memcpy(&deps, p, sizeof deps);
            memcpy(&n, base + f[i].off2, 4);
            if (!deps) n = 0;
            if (n > CC_EVT_MAX_DEPS) n = CC_EVT_MAX_DEPS;
            put_u32(e, n);
            for (uint32_t k = 0; k < n; k++) put_u64(e, deps[k]);
            break;
        }
        case CC_FT_FRAMES: {
            const cc_stack_frame *fr;
            uint32_t n;
            memcpy(&fr, p, sizeof fr);
            memcpy(&n, base + f[i].off2, 4);
            if (!fr) n = 0;
            if (n > CC_EVT_MAX_FRAMES) n = CC_EVT_MAX_FRAMES;
            put_u32(e, n);
            for (uint32_t k = 0; k < n; k++) {
                put_u64(e, fr[k].pc);
                put_str(e, fr[k].text);
            }
            break;
        }
        }
    }
}

/* Encode into e; returns the record length, 0 if the kind is unknown or the payload too big. */
static size_t encode(enc *e, const cc_event *ev)
{
    size_t nf;
    const cc_evt_field *f = cc_evt_fields(ev->h.kind, &nf);
    if (!f) return 0;
    unsigned char hdr[CC_EVT_RECORD_HEADER];
    cc_put_u16le(hdr, (uint16_t)ev->h.kind);
    cc_put_u16le(hdr + 2, 0);
    cc_put_u32le(hdr + 4, 0); /* patched below */
    put(e, hdr, sizeof hdr);
    put_u32(e, ev->h.tid);
    put_u64(e, ev->h.timestamp);
    put_fields(e, ev, f, nf);
    size_t payload = e->pos - CC_EVT_RECORD_HEADER;
    if (payload > CC_EVT_MAX_PAYLOAD) return 0;
    if (e->buf && e->pos <= e->cap) cc_put_u32le(e->buf + 4, (uint32_t)payload);
    return e->pos;
}

size_t cc_evt_encoded_size(const cc_event *ev)
{
    enc e = { NULL, 0, 0 };
    return ev ? encode(&e, ev) : 0;
}

size_t cc_evt_encode(const cc_event *ev, unsigned char *buf, size_t cap)
{
    if (!ev || !buf) return 0;
    size_t n = cc_evt_encoded_size(ev);
    if (!n || n > cap) return 0; /* buf untouched */
    enc e = { buf, cap, 0 };
    return encode(&e, ev);
}

void cc_evt_encode_file_header(unsigned char *buf, uint32_t pid, uint64_t wall_ns,
                               uint64_t mono_ns)
{
    memset(buf, 0, CC_EVT_HEADER_SIZE);
    memcpy(buf, CC_EVT_MAGIC, CC_EVT_MAGIC_LEN);
    cc_put_u32le(buf + 8, CC_EVT_VERSION);
    cc_put_u32le(buf + 12, CC_EVT_HEADER_SIZE);
    cc_put_u32le(buf + 16, pid);
    cc_put_u32le(buf + 20, 0);                /* flags, none defined */
    cc_put_u64le(buf + 24, wall_ns);          /* CLOCK_REALTIME when the file was opened */
    cc_put_u64le(buf + 32, mono_ns);          /* CLOCK_MONOTONIC at the same moment */
    cc_put_u32le(buf + 40, CC_EV_KIND_COUNT); /* event kinds the writer knew */
    cc_put_u32le(buf + 44, 0);                /* reserved */
}
