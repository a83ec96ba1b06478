/* Suppressions files (core/suppress.h): parsing blocks of key=glob lines into rules, with
 * "file:line: what" errors, and matching findings against the rules. */
#include "core/suppress.h"
#include "core/input_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"

enum { K_TOOL, K_KIND, K_KERNEL, K_FILE, K_MESSAGE, K_SINGLE_COUNT };
static const char *const single_keys[K_SINGLE_COUNT] = {"tool", "kind", "kernel", "file", "message"};

typedef struct rule {
    char *single[K_SINGLE_COUNT]; /* NULL: key absent */
    char **frames;
    size_t nframes, frames_cap;
} rule;

struct cc_suppressions {
    rule *rules;
    size_t n, cap;
};

static void rule_free(rule *r) {
    for (int i = 0; i < K_SINGLE_COUNT; i++) free(r->single[i]);
    for (size_t i = 0; i < r->nframes; i++) free(r->frames[i]);
    free(r->frames);
}

void cc_suppressions_free(cc_suppressions *s) {
    if (!s) return;
    for (size_t i = 0; i < s->n; i++) rule_free(&s->rules[i]);
    free(s->rules);
    free(s);
}

size_t cc_suppressions_count(const cc_suppressions *s) { return s ? s->n : 0; }

static rule *open_rule(cc_suppressions *s) {
    rule *r = CC_ARRAY_PUSH(s->rules, s->n, s->cap);
    if (r) memset(r, 0, sizeof *r);
    return r;
}

static char *trim(char *a, char *end) {
    while (a < end && (*a == ' ' || *a == '\t')) a++;
    while (end > a && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r')) end--;
    *end = '\0';
    return a;
}

/* One line (NUL-terminated, without its newline). *cur is the rule being filled or NULL. */
static int parse_line(cc_suppressions *s, rule **cur, char *line, const char *name,
                      size_t lineno, char *err, size_t errlen) {
    char *t = trim(line, line + strlen(line));
    if (*t == '\0') {
        *cur = NULL; /* a blank line ends the rule */
        return 0;
    }
    if (*t == '#') return 0;
    char *eq = strchr(t, '=');
    if (!eq) {
        snprintf(err, errlen, "%s:%zu: expected key=value, got '%.60s'", name, lineno, t);
        return -1;
    }
    char *key = trim(t, eq);
    char *val = trim(eq + 1, eq + 1 + strlen(eq + 1));
    if (*key == '\0') {
        snprintf(err, errlen, "%s:%zu: no key before '=' (known: tool, kind, kernel, file, "
                 "frame, message)", name, lineno);
        return -1;
    }
    if (*val == '\0') {
        snprintf(err, errlen, "%s:%zu: key '%.40s' has no pattern after '=' (use '*' for any)",
                 name, lineno, key);
        return -1;
    }
    if (!*cur && !(*cur = open_rule(s))) goto oom;
    rule *r = *cur;
    if (strcmp(key, "frame") == 0) {
        if (CC_ARRAY_RESERVE(r->frames, r->frames_cap, r->nframes + 1)) goto oom;
        if (!(r->frames[r->nframes] = strdup(val))) goto oom;
        r->nframes++;
        return 0;
    }
    for (int i = 0; i < K_SINGLE_COUNT; i++) {
        if (strcmp(key, single_keys[i]) != 0) continue;
        if (r->single[i]) {
            snprintf(err, errlen, "%s:%zu: key '%s' given twice in one rule", name, lineno, key);
            return -1;
        }
        if (!(r->single[i] = strdup(val))) goto oom;
        return 0;
    }
    snprintf(err, errlen,
             "%s:%zu: unknown key '%.40s' (known: tool, kind, kernel, file, frame, message)",
             name, lineno, key);
    return -1;
oom:
    snprintf(err, errlen, "%s:%zu: out of memory", name, lineno);
    return -1;
}

cc_suppressions *cc_suppressions_parse(const char *text, const char *name, char *err,
                                       size_t errlen) {
    if (!name) name = "suppressions";
    cc_suppressions *s = calloc(1, sizeof *s);
    char *copy = text ? strdup(text) : strdup("");
    if (!s || !copy) {
        snprintf(err, errlen, "%s: out of memory", name);
        free(copy);
        free(s);
        return NULL;
    }
    rule *cur = NULL;
    size_t lineno = 0;
    char *line = copy;
    while (line) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        lineno++;
        if (parse_line(s, &cur, line, name, lineno, err, errlen) != 0) {
            free(copy);
            cc_suppressions_free(s);
            return NULL;
        }
        line = nl ? nl + 1 : NULL;
    }
    free(copy);
    return s;
}

#define CC_SUPPRESS_MAX_FILE (16u << 20)

cc_suppressions *cc_suppressions_load(const char *path, char *err, size_t errlen) {
    char *buf = NULL, why[256];
    size_t n = 0;
    if (cc_input_read(path, CC_SUPPRESS_MAX_FILE, &buf, &n, why, sizeof why) != 0) {
        snprintf(err, errlen, "%s: %s", path, why);
        return NULL;
    }
    if (memchr(buf, '\0', n)) {
        snprintf(err, errlen, "%s: contains a NUL byte (not a text file?)", path);
        free(buf);
        return NULL;
    }
    cc_suppressions *s = cc_suppressions_parse(buf, path, err, errlen);
    free(buf);
    return s;
}

static const char *base_name(const char *p) {
    const char *slash = strrchr(p, '/');
    return slash ? slash + 1 : p;
}

static int rule_matches(const rule *r, const cc_finding *f) {
    const cc_device_loc *d = f->has_device ? &f->device : NULL;
    if (r->single[K_TOOL] && !cc_glob_match(r->single[K_TOOL], f->tool ? f->tool : ""))
        return 0;
    if (r->single[K_KIND] && !cc_glob_match(r->single[K_KIND], f->kind ? f->kind : ""))
        return 0;
    if (r->single[K_MESSAGE] &&
        !cc_glob_match(r->single[K_MESSAGE], f->message ? f->message : ""))
        return 0;
    if (r->single[K_KERNEL]) { /* the demangled name or the mangled one */
        if (!d || !(d->valid & CC_DLOC_KERNEL) || !d->kernel ||
            (!cc_glob_match(r->single[K_KERNEL], d->kernel) &&
             !(d->kernel_mangled && cc_glob_match(r->single[K_KERNEL], d->kernel_mangled))))
            return 0;
    }
    if (r->single[K_FILE]) {
        if (!d || !(d->valid & CC_DLOC_LINE) || !d->file) return 0;
        if (!cc_glob_match(r->single[K_FILE], d->file) &&
            !cc_glob_match(r->single[K_FILE], base_name(d->file)))
            return 0;
    }
    for (size_t i = 0; i < r->nframes; i++) {
        int any = 0;
        for (uint32_t j = 0; f->frames && j < f->nframes && !any; j++)
            any = f->frames[j].text && cc_glob_match(r->frames[i], f->frames[j].text);
        if (!any) return 0;
    }
    return 1;
}

int cc_suppressions_match(const cc_suppressions *s, const cc_finding *f) {
    if (!s || !f) return 0;
    for (size_t i = 0; i < s->n; i++)
        if (rule_matches(&s->rules[i], f)) return 1;
    return 0;
}
