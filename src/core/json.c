/* The JSON parser of core/json.h: strict RFC 8259 recursive descent over a (pointer, length)
 * buffer, every read bounds-checked, nesting limited to CC_JSON_MAX_DEPTH, strings checked to be
 * valid UTF-8 and \u escapes (surrogate pairs included) decoded. */
#include "core/json.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"

typedef struct parser {
    const char *s;
    size_t len, pos;
    char *err;
    size_t errlen;
    int failed;
} parser;

static void fail(parser *p, const char *fmt, ...) {
    if (p->failed) return;
    p->failed = 1;
    if (!p->err || p->errlen == 0) return;
    int n = snprintf(p->err, p->errlen, "offset %zu: ", p->pos);
    if (n < 0 || (size_t)n >= p->errlen) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, p->errlen - (size_t)n, fmt, ap);
    va_end(ap);
}

static int peek(const parser *p) { return p->pos < p->len ? (unsigned char)p->s[p->pos] : -1; }

static void skip_ws(parser *p) {
    while (p->pos < p->len) {
        char c = p->s[p->pos];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
        p->pos++;
    }
}

static int match_word(parser *p, const char *w) {
    size_t n = strlen(w);
    if (p->len - p->pos < n || memcmp(p->s + p->pos, w, n) != 0) return 0;
    p->pos += n;
    return 1;
}

void cc_json_free(cc_json *v) {
    if (!v) return;
    if (v->type == CC_JSON_ARRAY || v->type == CC_JSON_OBJECT) {
        for (size_t i = 0; i < v->len; i++) {
            cc_json_free(v->items[i]);
            if (v->keys) free(v->keys[i]);
        }
        free(v->items);
        free(v->keys);
    }
    free(v->str);
    free(v);
}

static cc_json *new_value(parser *p, cc_json_type t) {
    cc_json *v = calloc(1, sizeof *v);
    if (!v) fail(p, "out of memory");
    else v->type = t;
    return v;
}

/* ---- strings ---- */

typedef struct sbuf {
    char *b;
    size_t n, cap;
} sbuf;

static int sb_put(sbuf *b, const char *src, size_t n) {
    if (n > SIZE_MAX - 1 - b->n || CC_ARRAY_RESERVE(b->b, b->cap, b->n + n + 1)) return -1;
    memcpy(b->b + b->n, src, n);
    b->n += n;
    b->b[b->n] = '\0';
    return 0;
}

static size_t utf8_encode(uint32_t cp, char out[4]) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

size_t cc_utf8_seq_len(const unsigned char *s, size_t n) {
    if (n == 0) return 0;
    unsigned c = s[0];
    if (c < 0x80) return 1;
    size_t len;
    uint32_t min, cp;
    if ((c & 0xE0) == 0xC0) len = 2, min = 0x80, cp = c & 0x1F;
    else if ((c & 0xF0) == 0xE0) len = 3, min = 0x800, cp = c & 0x0F;
    else if ((c & 0xF8) == 0xF0) len = 4, min = 0x10000, cp = c & 0x07;
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[i] & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return len;
}

static int hex4(parser *p, uint32_t *out) {
    if (p->len - p->pos < 4) {
        fail(p, "truncated \\u escape");
        return -1;
    }
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        char c = p->s[p->pos + (size_t)i];
        v <<= 4;
        if (c >= '0' && c <= '9') v |= (uint32_t)(c - '0');
        else if (c >= 'a' && c <= 'f') v |= (uint32_t)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F') v |= (uint32_t)(c - 'A' + 10);
        else {
            fail(p, "bad hex digit in \\u escape");
            return -1;
        }
    }
    p->pos += 4;
    *out = v;
    return 0;
}

/* At the opening quote. Returns the malloc'd string and its length, NULL on error. */
static char *parse_string_raw(parser *p, size_t *outlen) {
    sbuf b = {0};
    p->pos++; /* opening quote */
    if (sb_put(&b, "", 0) != 0) goto oom;
    for (;;) {
        if (p->pos >= p->len) {
            fail(p, "unterminated string");
            goto bad;
        }
        unsigned char c = (unsigned char)p->s[p->pos];
        if (c == '"') {
            p->pos++;
            *outlen = b.n;
            return b.b;
        }
        if (c < 0x20) {
            fail(p, "control character in string");
            goto bad;
        }
        if (c == '\\') {
            p->pos++;
            int e = peek(p);
            if (e < 0) {
                fail(p, "unterminated escape");
                goto bad;
            }
            p->pos++;
            char ch;
            switch (e) {
            case '"': ch = '"'; break;
            case '\\': ch = '\\'; break;
            case '/': ch = '/'; break;
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            case 'n': ch = '\n'; break;
            case 'r': ch = '\r'; break;
            case 't': ch = '\t'; break;
            case 'u': {
                uint32_t cp;
                if (hex4(p, &cp) != 0) goto bad;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    uint32_t lo;
                    if (p->len - p->pos >= 6 && p->s[p->pos] == '\\' && p->s[p->pos + 1] == 'u') {
                        size_t save = p->pos;
                        p->pos += 2;
                        if (hex4(p, &lo) != 0) goto bad;
                        if (lo >= 0xDC00 && lo <= 0xDFFF)
                            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                        else {
                            p->pos = save; /* lone high surrogate */
                            cp = 0xFFFD;
                        }
                    } else {
                        cp = 0xFFFD;
                    }
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    cp = 0xFFFD; /* lone low surrogate */
                }
                char u[4];
                if (sb_put(&b, u, utf8_encode(cp, u)) != 0) goto oom;
                continue;
            }
            default:
                p->pos--;
                fail(p, "bad escape '\\%c'", e);
                goto bad;
            }
            if (sb_put(&b, &ch, 1) != 0) goto oom;
            continue;
        }
        size_t n = cc_utf8_seq_len((const unsigned char *)p->s + p->pos, p->len - p->pos);
        if (n == 0) {
            fail(p, "invalid UTF-8 in string");
            goto bad;
        }
        if (sb_put(&b, p->s + p->pos, n) != 0) goto oom;
        p->pos += n;
    }
oom:
    fail(p, "out of memory");
bad:
    free(b.b);
    return NULL;
}

/* ---- numbers ---- */

static cc_json *parse_number(parser *p) {
    size_t start = p->pos;
    int neg = 0, integral = 1;
    if (peek(p) == '-') {
        neg = 1;
        p->pos++;
    }
    int c = peek(p);
    if (c == '0') {
        p->pos++;
    } else if (c >= '1' && c <= '9') {
        while ((c = peek(p)) >= '0' && c <= '9') p->pos++;
    } else {
        fail(p, "bad number");
        return NULL;
    }
    if (peek(p) == '.') {
        integral = 0;
        p->pos++;
        if (!((c = peek(p)) >= '0' && c <= '9')) {
            fail(p, "digit expected after '.'");
            return NULL;
        }
        while ((c = peek(p)) >= '0' && c <= '9') p->pos++;
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        integral = 0;
        p->pos++;
        if (peek(p) == '+' || peek(p) == '-') p->pos++;
        if (!((c = peek(p)) >= '0' && c <= '9')) {
            fail(p, "digit expected in exponent");
            return NULL;
        }
        while ((c = peek(p)) >= '0' && c <= '9') p->pos++;
    }
    size_t n = p->pos - start;
    char small[64];
    char *tmp = n < sizeof small ? small : malloc(n + 1);
    if (!tmp) {
        fail(p, "out of memory");
        return NULL;
    }
    memcpy(tmp, p->s + start, n);
    tmp[n] = '\0';
    cc_json *v = new_value(p, CC_JSON_NUMBER);
    if (v) {
        v->number = strtod(tmp, NULL);
        if (!neg && integral) {
            uint64_t u = 0;
            int ok = 1;
            for (size_t i = 0; i < n; i++) {
                unsigned d = (unsigned)(tmp[i] - '0');
                if (u > (UINT64_MAX - d) / 10) {
                    ok = 0;
                    break;
                }
                u = u * 10 + d;
            }
            v->is_u64 = ok;
            v->u64 = ok ? u : 0;
        }
    }
    if (tmp != small) free(tmp);
    return v;
}

/* ---- values ---- */

static cc_json *parse_value(parser *p, int depth);

/* cap: the capacities of parent's items and keys. */
static int add_child(parser *p, cc_json *parent, size_t cap[2], char *key, cc_json *child) {
    size_t need = parent->len + 1;
    if (CC_ARRAY_RESERVE(parent->items, cap[0], need) ||
        (parent->type == CC_JSON_OBJECT && CC_ARRAY_RESERVE(parent->keys, cap[1], need))) {
        fail(p, "out of memory");
        return -1;
    }
    parent->items[parent->len] = child;
    if (parent->type == CC_JSON_OBJECT) parent->keys[parent->len] = key;
    parent->len++;
    return 0;
}

static cc_json *parse_container(parser *p, int depth, int is_object) {
    if (depth >= CC_JSON_MAX_DEPTH) {
        fail(p, "nesting deeper than %d", CC_JSON_MAX_DEPTH);
        return NULL;
    }
    char close = is_object ? '}' : ']';
    cc_json *v = new_value(p, is_object ? CC_JSON_OBJECT : CC_JSON_ARRAY);
    if (!v) return NULL;
    size_t cap[2] = {0, 0};
    p->pos++; /* '{' or '[' */
    skip_ws(p);
    if (peek(p) == close) {
        p->pos++;
        return v;
    }
    for (;;) {
        char *key = NULL;
        skip_ws(p);
        if (is_object) {
            if (peek(p) != '"') {
                fail(p, "object key expected");
                goto bad;
            }
            size_t klen;
            key = parse_string_raw(p, &klen);
            if (!key) goto bad;
            skip_ws(p);
            if (peek(p) != ':') {
                free(key);
                fail(p, "':' expected");
                goto bad;
            }
            p->pos++;
        }
        cc_json *child = parse_value(p, depth + 1);
        if (!child) {
            free(key);
            goto bad;
        }
        if (add_child(p, v, cap, key, child) != 0) {
            free(key);
            cc_json_free(child);
            goto bad;
        }
        skip_ws(p);
        int c = peek(p);
        if (c == ',') {
            p->pos++;
            continue;
        }
        if (c == close) {
            p->pos++;
            return v;
        }
        fail(p, c < 0 ? "unexpected end of input" : "',' or '%c' expected", close);
        goto bad;
    }
bad:
    cc_json_free(v);
    return NULL;
}

static cc_json *parse_value(parser *p, int depth) {
    skip_ws(p);
    int c = peek(p);
    if (c < 0) {
        fail(p, "unexpected end of input");
        return NULL;
    }
    if (c == '{') return parse_container(p, depth, 1);
    if (c == '[') return parse_container(p, depth, 0);
    if (c == '"') {
        size_t n;
        char *s = parse_string_raw(p, &n);
        if (!s) return NULL;
        cc_json *v = new_value(p, CC_JSON_STRING);
        if (!v) {
            free(s);
            return NULL;
        }
        v->str = s;
        v->len = n;
        return v;
    }
    if (c == '-' || (c >= '0' && c <= '9')) return parse_number(p);
    if (match_word(p, "null")) return new_value(p, CC_JSON_NULL);
    if (match_word(p, "true")) return new_value(p, CC_JSON_TRUE);
    if (match_word(p, "false")) return new_value(p, CC_JSON_FALSE);
    fail(p, "unexpected character");
    return NULL;
}

cc_json *cc_json_parse(const char *text, size_t len, char *err, size_t errlen) {
    parser p = {text ? text : "", text ? len : 0, 0, err, errlen, 0};
    if (err && errlen) err[0] = '\0';
    cc_json *v = parse_value(&p, 0);
    if (!v) {
        if (!p.failed) fail(&p, "parse error");
        return NULL;
    }
    skip_ws(&p);
    if (p.pos != p.len) {
        fail(&p, "trailing characters after the value");
        cc_json_free(v);
        return NULL;
    }
    return v;
}

/* ---- lookups ---- */

const cc_json *cc_json_get(const cc_json *obj, const char *key) {
    if (!obj || obj->type != CC_JSON_OBJECT || !key) return NULL;
    for (size_t i = obj->len; i-- > 0;)
        if (strcmp(obj->keys[i], key) == 0) return obj->items[i];
    return NULL;
}

const cc_json *cc_json_at(const cc_json *arr, size_t i) {
    if (!arr || arr->type != CC_JSON_ARRAY || i >= arr->len) return NULL;
    return arr->items[i];
}

size_t cc_json_size(const cc_json *v) {
    if (!v || (v->type != CC_JSON_ARRAY && v->type != CC_JSON_OBJECT)) return 0;
    return v->len;
}

const char *cc_json_str(const cc_json *v) {
    return v && v->type == CC_JSON_STRING ? v->str : NULL;
}

int cc_json_u64(const cc_json *v, uint64_t *out) {
    if (!v) return -1;
    if (v->type == CC_JSON_NUMBER) {
        if (!v->is_u64) return -1;
        *out = v->u64;
        return 0;
    }
    if (v->type != CC_JSON_STRING || v->len == 0 || strlen(v->str) != v->len) return -1;
    const char *s = v->str;
    if (*s < '0' || *s > '9') return -1; /* no sign or whitespace, which strtoull would take */
    int base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
    if (base == 16 && s[2] == '\0') return -1;
    char *end;
    errno = 0;
    unsigned long long u = strtoull(s, &end, base);
    if (errno || *end) return -1;
    *out = u;
    return 0;
}
