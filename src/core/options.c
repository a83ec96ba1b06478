/* Tool options (core/options.h): an ordered list of name=value pairs, parsed from and encoded to
 * "name=value" lines. Names are non-empty and hold no '=' or newline; setting a name again
 * replaces its value in place. */
#include "core/options.h"

#include <stdlib.h>
#include <string.h>
#include "core/grow.h"

typedef struct pair {
    char *name, *value;
} pair;

struct cc_options {
    pair *items;
    size_t n, cap;
};

cc_options *cc_options_new(void) { return calloc(1, sizeof(cc_options)); }

void cc_options_free(cc_options *o) {
    if (!o) return;
    for (size_t i = 0; i < o->n; i++) {
        free(o->items[i].name);
        free(o->items[i].value);
    }
    free(o->items);
    free(o);
}

static pair *find(const cc_options *o, const char *name) {
    for (size_t i = 0; o && name && i < o->n; i++)
        if (strcmp(o->items[i].name, name) == 0) return &o->items[i];
    return NULL;
}

static int set_n(cc_options *o, const char *name, size_t nlen, const char *value) {
    if (!o || !name || !value || nlen == 0) return -1;
    if (memchr(name, '=', nlen) || memchr(name, '\n', nlen) || memchr(name, '\0', nlen)) return -1;
    char *nm = strndup(name, nlen);
    char *val = strdup(value);
    if (!nm || !val) goto fail;
    pair *p = find(o, nm);
    if (p) {
        free(nm);
        free(p->value);
        p->value = val;
        return 0;
    }
    pair *item = CC_ARRAY_PUSH(o->items, o->n, o->cap);
    if (!item) goto fail;
    *item = (pair){nm, val};
    return 0;
fail:
    free(nm);
    free(val);
    return -1;
}

/* A value with a newline is stored (cc_options_encode refuses it), so that the CLI can tell a
 * bad value from a bad name. */
int cc_options_set(cc_options *o, const char *name, const char *value) {
    return name ? set_n(o, name, strlen(name), value) : -1;
}

const char *cc_options_get(const cc_options *o, const char *name) {
    pair *p = find(o, name);
    return p ? p->value : NULL;
}

const char *cc_options_getter(void *ctx, const char *name) {
    return cc_options_get((const cc_options *)ctx, name);
}

size_t cc_options_count(const cc_options *o) { return o ? o->n : 0; }

const char *cc_options_name_at(const cc_options *o, size_t i) {
    return o && i < o->n ? o->items[i].name : NULL;
}

cc_options *cc_options_parse(const char *encoded) {
    cc_options *o = cc_options_new();
    if (!o) return NULL;
    const char *p = encoded ? encoded : "";
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (len > 0 && p[len - 1] == '\r') len--; /* tolerate CRLF */
        if (len > 0) {
            const char *eq = memchr(p, '=', len);
            if (!eq || eq == p) goto bad;
            char *val = strndup(eq + 1, len - (size_t)(eq + 1 - p));
            if (!val) goto bad;
            int rc = set_n(o, p, (size_t)(eq - p), val);
            free(val);
            if (rc != 0) goto bad;
        }
        if (!nl) break;
        p = nl + 1;
    }
    return o;
bad:
    cc_options_free(o);
    return NULL;
}

char *cc_options_encode(const cc_options *o) {
    if (!o) return NULL;
    size_t total = 1;
    for (size_t i = 0; i < o->n; i++) {
        if (strchr(o->items[i].value, '\n')) return NULL;
        total += strlen(o->items[i].name) + strlen(o->items[i].value) + 2;
    }
    char *buf = malloc(total);
    if (!buf) return NULL;
    size_t k = 0;
    for (size_t i = 0; i < o->n; i++) {
        size_t nl = strlen(o->items[i].name), vl = strlen(o->items[i].value);
        memcpy(buf + k, o->items[i].name, nl);
        k += nl;
        buf[k++] = '=';
        memcpy(buf + k, o->items[i].value, vl);
        k += vl;
        buf[k++] = '\n';
    }
    buf[k] = '\0';
    return buf;
}
