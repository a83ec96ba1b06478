/* The text scenario parser (docs/formats.md, section "scenario"): one event per line,
 * `kind key=value ...`, `#` comments, blank lines ignored. Keys are the field names of the
 * kind's struct (field tables in evtio_fields.c) plus the header keys `t` and `tid`. Values are
 * numbers (decimal or 0x-hex), enum names, symbolic handle and address names (interned per
 * parser), bare words or double-quoted strings. Every error names its line. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/evtio_internal.h"
#include "core/grow.h"

struct cc_scenario_parser {
    const char *data;
    size_t size, pos;
    size_t line;              /* number of the line being parsed, 1-based */
    uint64_t last_ts;
    cc_scenario_names *handles, *addrs;
    uint64_t *deps;
    size_t ndeps, deps_cap;
    cc_stack_frame *frames;
    size_t nframes, frames_cap;
    char *err;                /* where the current call reports */
    size_t errlen;
};

cc_scenario_parser *cc_scenario_parser_new(const char *data, size_t size)
{
    cc_scenario_parser *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    p->data = data;
    p->size = size;
    p->handles = cc_scenario_names_new();
    p->addrs = cc_scenario_names_new();
    if (!p->handles || !p->addrs) {
        cc_scenario_parser_free(p);
        return NULL;
    }
    return p;
}

void cc_scenario_parser_free(cc_scenario_parser *p)
{
    if (!p) return;
    cc_scenario_names_free(p->handles);
    cc_scenario_names_free(p->addrs);
    free(p->deps);
    free(p->frames);
    free(p);
}

#if defined(__GNUC__)
__attribute__((format(printf, 2, 3)))
#endif
static int perr(cc_scenario_parser *p, const char *fmt, ...)
{
    if (!p->err || !p->errlen) return -1;
    int n = snprintf(p->err, p->errlen, "line %zu: ", p->line);
    if (n < 0 || (size_t)n >= p->errlen) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int is_ws(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int is_ident(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return 0;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
              (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

static int hex_digit(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* A whole string s[0..n) as decimal or 0x-hex; 0 ok, -1 not a number or out of range. */
static int parse_u64n(const char *s, size_t n, uint64_t *out)
{
    uint64_t v = 0;
    if (n >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        if (n == 2) return -1;
        for (size_t i = 2; i < n; i++) {
            int d = hex_digit(s[i]);
            if (d < 0 || (v >> 60) != 0) return -1;
            v = (v << 4) | (uint64_t)d;
        }
    } else {
        if (n == 0) return -1;
        for (size_t i = 0; i < n; i++) {
            if (s[i] < '0' || s[i] > '9') return -1;
            uint64_t d = (uint64_t)(s[i] - '0');
            if (v > (UINT64_MAX - d) / 10) return -1;
            v = v * 10 + d;
        }
    }
    *out = v;
    return 0;
}

static int parse_u64(const char *s, uint64_t *out)
{
    return parse_u64n(s, strlen(s), out);
}

static int bad(cc_scenario_parser *p, const char *key, const char *val, const char *expected)
{
    return perr(p, "bad value '%.60s' for key '%s' (expected %s)", val, key, expected);
}

static int parse_u32(cc_scenario_parser *p, const char *key, const char *val, uint32_t *out)
{
    uint64_t v;
    if (parse_u64(val, &v) || v > UINT32_MAX)
        return bad(p, key, val, "a number from 0 to 4294967295");
    *out = (uint32_t)v;
    return 0;
}

static int parse_i32(cc_scenario_parser *p, const char *key, const char *val, int32_t *out)
{
    int neg = val[0] == '-';
    uint64_t v;
    if (parse_u64(val + neg, &v) || v > (neg ? 2147483648ull : 2147483647ull))
        return bad(p, key, val, "a number from -2147483648 to 2147483647");
    *out = neg ? (int32_t)(-(int64_t)v) : (int32_t)v;
    return 0;
}

/* A handle: a number, or a symbolic name interned to a stable id above the handle base. */
static int parse_handle(cc_scenario_parser *p, const char *key, const char *val, size_t n,
                        int stream, uint64_t *out)
{
    char tmp[256];
    if (n >= sizeof tmp) return bad(p, key, val, "a number or a name of at most 255 characters");
    memcpy(tmp, val, n);
    tmp[n] = '\0';
    if (parse_u64(tmp, out) == 0) return 0;
    if (stream && strcmp(tmp, "legacy") == 0) {
        *out = CC_STREAM_LEGACY;
        return 0;
    }
    if (stream && strcmp(tmp, "per_thread") == 0) {
        *out = CC_STREAM_PER_THREAD;
        return 0;
    }
    if (!is_ident(tmp)) return bad(p, key, tmp, "a number or a name like s1");
    uint64_t idx = cc_scenario_names_intern(p->handles, tmp, n);
    if (!idx) return perr(p, "out of memory");
    *out = CC_SCENARIO_HANDLE_BASE + idx;
    return 0;
}

/* An address: a number, NAME or NAME+OFFSET (symbolic names are far apart, see the doc). */
static int parse_addr(cc_scenario_parser *p, const char *key, const char *val, uint64_t *out)
{
    if (parse_u64(val, out) == 0) return 0;
    const char *plus = strchr(val, '+');
    size_t n = plus ? (size_t)(plus - val) : strlen(val);
    char tmp[256];
    uint64_t off = 0;
    if (n >= sizeof tmp) return bad(p, key, val, "an address: NUMBER, NAME or NAME+OFFSET");
    memcpy(tmp, val, n);
    tmp[n] = '\0';
    if (!is_ident(tmp) || (plus && (parse_u64(plus + 1, &off) || off >= CC_SCENARIO_ADDR_STRIDE)))
        return bad(p, key, val, "an address: NUMBER, NAME or NAME+OFFSET below 4 GiB");
    uint64_t idx = cc_scenario_names_intern(p->addrs, tmp, n);
    if (!idx) return perr(p, "out of memory");
    if (idx > (UINT64_MAX - CC_SCENARIO_ADDR_BASE) / CC_SCENARIO_ADDR_STRIDE - 1)
        return perr(p, "too many symbolic addresses");
    *out = CC_SCENARIO_ADDR_BASE + idx * CC_SCENARIO_ADDR_STRIDE + off;
    return 0;
}

static int parse_enum(cc_scenario_parser *p, const cc_evt_field *f, const char *val,
                      uint32_t *out)
{
    if (val[0] >= '0' && val[0] <= '9') return parse_u32(p, f->key, val, out);
    int v = f->from_name(val);
    if (v >= 0) {
        *out = (uint32_t)v;
        return 0;
    }
    char names[512];
    size_t n = 0;
    names[0] = '\0';
    for (uint32_t i = 0; i < 64 && f->name(i); i++) {
        int k = snprintf(names + n, sizeof names - n, "%s%s", i ? ", " : "", f->name(i));
        if (k < 0 || (size_t)k >= sizeof names - n) break;
        n += (size_t)k;
    }
    return bad(p, f->key, val, names);
}

static int parse_dim3(cc_scenario_parser *p, const char *key, const char *val, uint32_t v[3])
{
    const char *s = val;
    v[0] = v[1] = v[2] = 1;
    for (int i = 0;; i++) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        uint64_t x;
        if (i == 3 || parse_u64n(s, n, &x) || x > UINT32_MAX)
            return bad(p, key, val, "1 to 3 comma-separated numbers, like 256 or 4,2,1");
        v[i] = (uint32_t)x;
        if (!comma) return 0;
        s = comma + 1;
    }
}

static int parse_deps(cc_scenario_parser *p, const char *key, const char *val)
{
    const char *s = val;
    if (!*s) return 0;
    for (;;) {
        const char *comma = strchr(s, ',');
        size_t n = comma ? (size_t)(comma - s) : strlen(s);
        uint64_t id;
        if (parse_handle(p, key, s, n, 0, &id)) return -1;
        if (p->ndeps == CC_EVT_MAX_DEPS) return perr(p, "more than %u deps", CC_EVT_MAX_DEPS);
        uint64_t *dep = CC_ARRAY_PUSH(p->deps, p->ndeps, p->deps_cap);
        if (!dep) return perr(p, "out of memory");
        *dep = id;
        if (!comma) return 0;
        s = comma + 1;
    }
}

/* One frame "[0xPC@]text" from s[0..n). */
static int add_frame(cc_scenario_parser *p, cc_evt_arena *a, const char *s, size_t n)
{
    uint64_t pc = 0;
    const char *at = memchr(s, '@', n);
    if (at && at - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X') &&
        parse_u64n(s, (size_t)(at - s), &pc) == 0) {
        n -= (size_t)(at + 1 - s);
        s = at + 1;
    } else {
        pc = 0;
    }
    if (p->nframes == CC_EVT_MAX_FRAMES) return perr(p, "more than %u frames", CC_EVT_MAX_FRAMES);
    if (CC_ARRAY_RESERVE(p->frames, p->frames_cap, p->nframes + 1)) return perr(p, "out of memory");
    const char *text = cc_evt_arena_strndup(a, s, n);
    if (!text) return perr(p, "out of memory");
    p->frames[p->nframes].pc = pc;
    p->frames[p->nframes].text = text;
    p->nframes++;
    return 0;
}

static int parse_frames(cc_scenario_parser *p, cc_evt_arena *a, const char *val)
{
    for (const char *s = val;;) {
        const char *bar = strchr(s, '|');
        size_t n = bar ? (size_t)(bar - s) : strlen(s);
        if (add_frame(p, a, s, n)) return -1;
        if (!bar) return 0;
        s = bar + 1;
    }
}

static void set32(cc_event *ev, size_t off, uint32_t v) { memcpy((char *)ev + off, &v, 4); }
static void set64(cc_event *ev, size_t off, uint64_t v) { memcpy((char *)ev + off, &v, 8); }

static int apply_field(cc_scenario_parser *p, cc_evt_arena *a, cc_event *ev,
                       const cc_evt_field *f, const char *val)
{
    uint32_t u = 0;
    int32_t i = 0;
    uint64_t v = 0;
    switch (f->type) {
    case CC_FT_U32: case CC_FT_HEX32:
        if (parse_u32(p, f->key, val, &u)) return -1;
        set32(ev, f->off, u);
        return 0;
    case CC_FT_I32:
        if (parse_i32(p, f->key, val, &i)) return -1;
        memcpy((char *)ev + f->off, &i, 4);
        return 0;
    case CC_FT_ENUM:
        if (parse_enum(p, f, val, &u)) return -1;
        set32(ev, f->off, u);
        return 0;
    case CC_FT_U64:
        if (parse_u64(val, &v)) return bad(p, f->key, val, "a number");
        set64(ev, f->off, v);
        return 0;
    case CC_FT_ADDR:
        if (parse_addr(p, f->key, val, &v)) return -1;
        set64(ev, f->off, v);
        return 0;
    case CC_FT_HANDLE: case CC_FT_STREAM:
        if (parse_handle(p, f->key, val, strlen(val), f->type == CC_FT_STREAM, &v)) return -1;
        set64(ev, f->off, v);
        return 0;
    case CC_FT_STR:
        memcpy((char *)ev + f->off, &val, sizeof val);
        return 0;
    case CC_FT_DIM3: {
        uint32_t d[3];
        if (parse_dim3(p, f->key, val, d)) return -1;
        memcpy((char *)ev + f->off, d, sizeof d);
        return 0;
    }
    case CC_FT_DEPS:
        return parse_deps(p, f->key, val);
    case CC_FT_FRAMES:
        return parse_frames(p, a, val);
    }
    return perr(p, "internal: field type %d", (int)f->type);
}

/* Copy a quoted string starting after its opening quote; *end gets the position after the
 * closing quote. Escapes: \" \\ \n \t \r \xHH. */
static char *unquote(cc_scenario_parser *p, cc_evt_arena *a, const char *s, const char *e,
                     const char **end)
{
    char *out = cc_evt_arena_alloc(a, (size_t)(e - s) + 1, 1), *o = out;
    if (!out) {
        perr(p, "out of memory");
        return NULL;
    }
    while (s < e && *s != '"') {
        if (*s != '\\') {
            *o++ = *s++;
            continue;
        }
        if (e - s < 2) break;
        char c = s[1];
        s += 2;
        switch (c) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case 'n': *o++ = '\n'; break;
        case 't': *o++ = '\t'; break;
        case 'r': *o++ = '\r'; break;
        case 'x': {
            int h = e - s >= 2 ? hex_digit(s[0]) : -1, l = h >= 0 ? hex_digit(s[1]) : -1;
            if (l < 0 || (h == 0 && l == 0)) {
                perr(p, "bad \\x escape in string (need two hex digits, not 00)");
                return NULL;
            }
            *o++ = (char)(h * 16 + l);
            s += 2;
            break;
        }
        default:
            perr(p, "unknown escape '\\%c' in string", c >= 0x20 && c < 0x7f ? c : '?');
            return NULL;
        }
    }
    if (s >= e) {
        perr(p, "unterminated string");
        return NULL;
    }
    *o = '\0';
    *end = s + 1;
    return out;
}

static int parse_line(cc_scenario_parser *p, const char *s, const char *e, cc_event *ev,
                      cc_evt_arena *a)
{
    if (memchr(s, '\0', (size_t)(e - s))) return perr(p, "NUL byte in line");
    while (s < e && is_ws(*s)) s++;
    if (s == e || *s == '#') return 0;
    const char *ks = s;
    while (s < e && !is_ws(*s)) s++;
    char kname[64];
    size_t kn = (size_t)(s - ks);
    int kind = -1;
    if (kn < sizeof kname) {
        memcpy(kname, ks, kn);
        kname[kn] = '\0';
        kind = cc_event_kind_from_name(kname);
    }
    size_t nf;
    const cc_evt_field *fields = kind > 0 ? cc_evt_fields((uint32_t)kind, &nf) : NULL;
    if (!fields) return perr(p, "unknown event kind '%.*s'", kn > 60 ? 60 : (int)kn, ks);

    memset(ev, 0, sizeof *ev);
    ev->h.kind = (uint32_t)kind;
    p->ndeps = p->nframes = 0;
    uint64_t seen = 0;
    int have_t = 0;
    for (;;) {
        while (s < e && is_ws(*s)) s++;
        if (s == e || *s == '#') break;
        const char *key = s;
        while (s < e && !is_ws(*s) && *s != '=') s++;
        size_t klen = (size_t)(s - key);
        if (s == e || *s != '=') {
            while (s < e && !is_ws(*s)) s++;
            return perr(p, "expected key=value, got '%.*s'",
                        (int)(s - key > 60 ? 60 : s - key), key);
        }
        if (klen == 0) return perr(p, "missing key before '='");
        s++;
        const char *val;
        if (s < e && *s == '"') {
            val = unquote(p, a, s + 1, e, &s);
            if (!val) return -1;
            if (s < e && !is_ws(*s) && *s != '#')
                return perr(p, "unexpected character after the closing quote of '%.*s'",
                            (int)(klen > 60 ? 60 : klen), key);
        } else {
            const char *vs = s;
            while (s < e && !is_ws(*s)) s++;
            if (memchr(vs, '"', (size_t)(s - vs)))
                return perr(p, "stray '\"' in the value of '%.*s' (quote the whole value)",
                            (int)(klen > 60 ? 60 : klen), key);
            val = cc_evt_arena_strndup(a, vs, (size_t)(s - vs));
            if (!val) return perr(p, "out of memory");
        }

        /* Header keys, then the kind's fields; `frame` adds one frame (repeatable). */
        int bit;
        const cc_evt_field *f = NULL;
        if (klen == 1 && key[0] == 't') {
            bit = 62;
        } else if (klen == 3 && memcmp(key, "tid", 3) == 0) {
            bit = 63;
        } else {
            int frame = klen == 5 && memcmp(key, "frame", 5) == 0;
            bit = -1;
            for (size_t i = 0; i < nf; i++) {
                if ((frame && fields[i].type == CC_FT_FRAMES) ||
                    (strlen(fields[i].key) == klen && memcmp(fields[i].key, key, klen) == 0)) {
                    f = &fields[i];
                    bit = frame ? -2 : (int)i;
                    break;
                }
            }
            if (!f)
                return perr(p, "unknown key '%.*s' for %s", (int)(klen > 60 ? 60 : klen), key,
                            kname);
        }
        if (bit >= 0) {
            if (seen & (1ull << bit))
                return perr(p, "duplicate key '%.*s'", (int)klen, key);
            seen |= 1ull << bit;
        }
        if (bit == 62) {
            if (parse_u64(val, &ev->h.timestamp)) return bad(p, "t", val, "a number");
            have_t = 1;
        } else if (bit == 63) {
            if (parse_u32(p, "tid", val, &ev->h.tid)) return -1;
        } else if (bit == -2) {
            if (add_frame(p, a, val, strlen(val))) return -1;
        } else if (apply_field(p, a, ev, f, val)) {
            return -1;
        }
    }

    if (!have_t) ev->h.timestamp = p->last_ts + 1;
    p->last_ts = ev->h.timestamp;
    for (size_t i = 0; i < nf; i++) {
        const cc_evt_field *f = &fields[i];
        char *at = (char *)ev + f->off;
        if (f->type == CC_FT_STR && !(seen & (1ull << i))) {
            const char *empty = "";
            memcpy(at, &empty, sizeof empty);
        } else if (f->type == CC_FT_DEPS || f->type == CC_FT_FRAMES) {
            size_t n = f->type == CC_FT_DEPS ? p->ndeps : p->nframes;
            size_t each = f->type == CC_FT_DEPS ? sizeof(uint64_t) : sizeof(cc_stack_frame);
            void *arr = NULL;
            if (n) {
                arr = cc_evt_arena_alloc(a, n * each, 8);
                if (!arr) return perr(p, "out of memory");
                memcpy(arr, f->type == CC_FT_DEPS ? (void *)p->deps : (void *)p->frames,
                       n * each);
            }
            uint32_t n32 = (uint32_t)n;
            memcpy(at, &arr, sizeof arr);
            memcpy((char *)ev + f->off2, &n32, 4);
        }
    }
    return 1;
}

int cc_scenario_parser_next(cc_scenario_parser *p, cc_event *ev, cc_evt_arena *a, char *err,
                            size_t errlen)
{
    p->err = err;
    p->errlen = errlen;
    while (p->pos < p->size) {
        const char *s = p->data + p->pos;
        const char *nl = memchr(s, '\n', p->size - p->pos);
        const char *e = nl ? nl : p->data + p->size;
        p->pos = (size_t)(e - p->data) + (nl ? 1 : 0);
        p->line++;
        int rc = parse_line(p, s, e, ev, a);
        if (rc != 0) return rc;
    }
    return 0;
}
