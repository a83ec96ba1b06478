/* PTX text scan: a small tokenizer (comments and strings skipped) that picks out .version,
 * .target and each .entry with the performance directives written before its body. */
#include "symbols/ptx.h"

#include <string.h>

typedef struct lexer {
    const char *p;
    size_t pos, len;
} lexer;

static int is_ident(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '.' || c == '%';
}

/* Next token: an identifier/directive/number run, or one punctuation character. 0 at end. */
static int next_token(lexer *lx, const char **tok, size_t *toklen)
{
    while (lx->pos < lx->len) {
        char c = lx->p[lx->pos];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == 0) {
            lx->pos++;
        } else if (c == '/' && lx->pos + 1 < lx->len && lx->p[lx->pos + 1] == '/') {
            while (lx->pos < lx->len && lx->p[lx->pos] != '\n')
                lx->pos++;
        } else if (c == '/' && lx->pos + 1 < lx->len && lx->p[lx->pos + 1] == '*') {
            lx->pos += 2;
            while (lx->pos + 1 < lx->len && !(lx->p[lx->pos] == '*' && lx->p[lx->pos + 1] == '/'))
                lx->pos++;
            lx->pos = lx->pos + 2 <= lx->len ? lx->pos + 2 : lx->len;
        } else if (c == '"') {
            lx->pos++;
            while (lx->pos < lx->len && lx->p[lx->pos] != '"' && lx->p[lx->pos] != '\n')
                lx->pos++;
            if (lx->pos < lx->len)
                lx->pos++;
        } else {
            *tok = lx->p + lx->pos;
            if (is_ident(c)) {
                size_t s = lx->pos;
                while (lx->pos < lx->len && is_ident(lx->p[lx->pos]))
                    lx->pos++;
                *toklen = lx->pos - s;
            } else {
                lx->pos++;
                *toklen = 1;
            }
            return 1;
        }
    }
    return 0;
}

static int tok_is(const char *t, size_t n, const char *word)
{
    return strlen(word) == n && memcmp(t, word, n) == 0;
}

static uint32_t tok_uint(const char *t, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n && t[i] >= '0' && t[i] <= '9'; i++) {
        v = v * 10 + (uint64_t)(t[i] - '0');
        if (v > UINT32_MAX)
            return UINT32_MAX;
    }
    return (uint32_t)v;
}

/* Read up to three comma-separated integers after a directive. */
static void read_dims(lexer *lx, uint32_t *out, int max)
{
    const char *t;
    size_t n;
    for (int i = 0; i < max; i++) {
        size_t save = lx->pos;
        if (!next_token(lx, &t, &n) || !(t[0] >= '0' && t[0] <= '9')) {
            lx->pos = save;
            return;
        }
        out[i] = tok_uint(t, n);
        save = lx->pos;
        if (!next_token(lx, &t, &n) || !tok_is(t, n, ",")) {
            lx->pos = save;
            return;
        }
    }
}

int cc_ptx_is_ptx(const void *text, size_t len)
{
    lexer lx = {text, 0, len > 4096 ? 4096 : len};
    const char *t;
    size_t n;
    /* Only directives may come before .version (comments are skipped by the lexer). */
    while (next_token(&lx, &t, &n))
        return tok_is(t, n, ".version");
    return 0;
}

int cc_ptx_scan(const void *text, size_t len, cc_ptx_module *mod, cc_ptx_entry_cb cb, void *user)
{
    lexer lx = {text, 0, text ? len : 0};
    const char *t;
    size_t n;
    int stopped = 0;
    memset(mod, 0, sizeof *mod);
    while (next_token(&lx, &t, &n)) {
        if (tok_is(t, n, ".version")) {
            if (next_token(&lx, &t, &n)) {
                /* "9.0" lexes as one run: split at the dot. */
                const char *dot = memchr(t, '.', n);
                mod->version_major = tok_uint(t, dot ? (size_t)(dot - t) : n);
                if (dot)
                    mod->version_minor = tok_uint(dot + 1, n - (size_t)(dot + 1 - t));
            }
        } else if (tok_is(t, n, ".target")) {
            if (next_token(&lx, &t, &n) && !mod->target[0]) {
                size_t k = n < sizeof mod->target - 1 ? n : sizeof mod->target - 1;
                memcpy(mod->target, t, k);
                mod->target[k] = 0;
            }
        } else if (tok_is(t, n, ".entry")) {
            cc_ptx_entry e;
            memset(&e, 0, sizeof e);
            if (!next_token(&lx, &t, &n))
                break;
            e.name = t;
            e.name_len = n;
            /* Skip the parameter list, then read directives up to the body or ';'. */
            int depth = 0;
            while (next_token(&lx, &t, &n)) {
                if (tok_is(t, n, "("))
                    depth++;
                else if (tok_is(t, n, ")"))
                    depth--;
                else if (depth > 0)
                    continue;
                else if (tok_is(t, n, "{") || tok_is(t, n, ";"))
                    break;
                else if (tok_is(t, n, ".maxntid"))
                    read_dims(&lx, e.maxntid, 3);
                else if (tok_is(t, n, ".reqntid"))
                    read_dims(&lx, e.reqntid, 3);
                else if (tok_is(t, n, ".reqnctapercluster"))
                    read_dims(&lx, e.cluster, 3);
                else if (tok_is(t, n, ".minnctapersm"))
                    read_dims(&lx, &e.minnctapersm, 1);
                else if (tok_is(t, n, ".maxnreg"))
                    read_dims(&lx, &e.maxnreg, 1);
            }
            /* ".maxntid 256" means 256x1x1. */
            uint32_t *dims[3] = {e.maxntid, e.reqntid, e.cluster};
            for (int d = 0; d < 3; d++)
                for (int i = 1; i < 3 && dims[d][0]; i++)
                    if (!dims[d][i])
                        dims[d][i] = 1;
            mod->entries++;
            if (!stopped && cb && cb(&e, user))
                stopped = 1;
        }
    }
    return 0;
}
