/* Decoding the payload of a .cuevt version 1 record into a cc_event. Every read is checked
 * against the bytes left in the payload; strings and arrays are copied (NUL-terminated) into
 * the reader's scratch arena. Bytes after the last known field are ignored, so that later
 * writers may append fields. Errors name the input offset where the payload went wrong. */
#include <stdio.h>
#include <string.h>
#include "core/evtio_internal.h"
#include "core/byteio.h"

typedef struct dec {
    const unsigned char *p;
    size_t len, pos;
    uint64_t base; /* input offset of p[0] */
    const char *kind;
    cc_evt_arena *a;
    char *err;
    size_t errlen;
} dec;

static int fail(dec *d, const char *what, const char *detail, unsigned long long n)
{
    if (d->err && d->errlen)
        snprintf(d->err, d->errlen, "offset %llu: %s record, field %s: %s %llu",
                 (unsigned long long)(d->base + d->pos), d->kind, what, detail, n);
    return -1;
}

static int need(dec *d, size_t n, const char *what)
{
    if (d->len - d->pos < n)
        return fail(d, what, "truncated payload, bytes left", d->len - d->pos);
    return 0;
}

static int get_u32(dec *d, const char *what, uint32_t *v)
{
    if (need(d, 4, what)) return -1;
    *v = cc_get_u32le(d->p + d->pos);
    d->pos += 4;
    return 0;
}

static int get_u64(dec *d, const char *what, uint64_t *v)
{
    if (need(d, 8, what)) return -1;
    *v = cc_get_u64le(d->p + d->pos);
    d->pos += 8;
    return 0;
}

static int get_str(dec *d, const char *what, const char **out)
{
    uint32_t n;
    if (get_u32(d, what, &n)) return -1;
    if (n > CC_EVT_MAX_STRING) {
        d->pos -= 4;
        return fail(d, what, "string length over the limit:", n);
    }
    if (d->len - d->pos < n) {
        d->pos -= 4;
        return fail(d, what, "string longer than the payload left, length", n);
    }
    char *s = cc_evt_arena_strndup(d->a, (const char *)d->p + d->pos, n);
    if (!s) return fail(d, what, "out of memory for string of length", n);
    d->pos += n;
    *out = s;
    return 0;
}

static int get_count(dec *d, const char *what, uint32_t cap, size_t item_min, uint32_t *n)
{
    if (get_u32(d, what, n)) return -1;
    if (*n > cap) {
        d->pos -= 4;
        return fail(d, what, "count over the limit:", *n);
    }
    if ((d->len - d->pos) / item_min < *n) {
        d->pos -= 4;
        return fail(d, what, "count larger than the payload left can hold:", *n);
    }
    return 0;
}

static int get_field(dec *d, const cc_evt_field *f, char *base)
{
    char *p = base + f->off;
    switch (f->type) {
    case CC_FT_U32: case CC_FT_I32: case CC_FT_HEX32: case CC_FT_ENUM: {
        uint32_t v;
        if (get_u32(d, f->key, &v)) return -1;
        memcpy(p, &v, 4);
        return 0;
    }
    case CC_FT_U64: case CC_FT_ADDR: case CC_FT_HANDLE: case CC_FT_STREAM: {
        uint64_t v;
        if (get_u64(d, f->key, &v)) return -1;
        memcpy(p, &v, 8);
        return 0;
    }
    case CC_FT_STR: {
        const char *s;
        if (get_str(d, f->key, &s)) return -1;
        memcpy(p, &s, sizeof s);
        return 0;
    }
    case CC_FT_DIM3: {
        uint32_t v[3];
        for (int k = 0; k < 3; k++)
            if (get_u32(d, f->key, &v[k])) return -1;
        memcpy(p, v, sizeof v);
        return 0;
    }
    case CC_FT_DEPS: {
        uint32_t n;
        if (get_count(d, f->key, CC_EVT_MAX_DEPS, 8, &n)) return -1;
        uint64_t *deps = n ? cc_evt_arena_alloc(d->a, (size_t)n * 8, 8) : NULL;
        if (n && !deps) return fail(d, f->key, "out of memory for count", n);
        for (uint32_t k = 0; k < n; k++) get_u64(d, f->key, &deps[k]); /* fits: checked */
        const uint64_t *cd = deps;
        memcpy(p, &cd, sizeof cd);
        memcpy(base + f->off2, &n, 4);
        return 0;
    }
    case CC_FT_FRAMES: {
        uint32_t n;
        if (get_count(d, f->key, CC_EVT_MAX_FRAMES, 12, &n)) return -1;
        cc_stack_frame *fr =
            n ? cc_evt_arena_alloc(d->a, (size_t)n * sizeof *fr, _Alignof(cc_stack_frame))
              : NULL;
        if (n && !fr) return fail(d, f->key, "out of memory for count", n);
        for (uint32_t k = 0; k < n; k++)
            if (get_u64(d, f->key, &fr[k].pc) || get_str(d, f->key, &fr[k].text)) return -1;
        const cc_stack_frame *cf = fr;
        memcpy(p, &cf, sizeof cf);
        memcpy(base + f->off2, &n, 4);
        return 0;
    }
    }
    return fail(d, f->key, "unknown field type", f->type);
}

int cc_evt_decode_payload(uint32_t kind, const unsigned char *payload, size_t len,
                          uint64_t payload_off, cc_event *ev, cc_evt_arena *a, char *err,
                          size_t errlen)
{
    size_t nf;
    const cc_evt_field *f = cc_evt_fields(kind, &nf);
    dec d = { payload, len, 0, payload_off, cc_event_kind_name(kind), a, err, errlen };
    if (!f) {
        d.kind = "unknown";
        return fail(&d, "kind", "no field table for kind", kind);
    }
    memset(ev, 0, sizeof *ev);
    ev->h.kind = kind;
    if (get_u32(&d, "tid", &ev->h.tid) || get_u64(&d, "timestamp", &ev->h.timestamp))
        return -1;
    for (size_t i = 0; i < nf; i++) {
        if (f[i].appended && d.pos == d.len)
            break; /* an older writer's payload: appended numeric fields stay 0 */
        if (get_field(&d, &f[i], (char *)ev)) return -1;
    }
    /* Remaining bytes are fields appended by a newer writer: ignored. */
    return 0;
}
