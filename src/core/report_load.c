/* Reading JSON Lines report files back into a cc_finding_set (what the CLI collects from every
 * process): header lines start a section (ids are per section, since an exec'd process appends
 * to the same file; its pid and rank say which process every finding of it came from), and with
 * a run id only the sections of that run are read; finding lines
 * add findings, update lines set their final count and samples, note lines are kept, summary
 * and unknown record types are skipped. A damaged line is skipped and counted, never the end of
 * the file; a last line cut short (the process died mid-write) is ignored with a warning. */
#include "core/report.h"
#include "core/report_internal.h"
#include "core/finding_util.h"
#include "core/grow.h"
#include "core/hashmap.h"
#include "core/json.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct cc_finding_set {
    cc_finding **items;
    size_t n, cap;
    size_t *section_of;      /* per finding: index into sections, SIZE_MAX before any header */
    size_t section_of_cap;
    cc_report_origin *sections; /* the headers of the sections read, in order */
    size_t nsections, sections_cap;
    char **notes;
    size_t nnotes, notes_cap;
};

cc_finding_set *cc_finding_set_new(void) { return calloc(1, sizeof(cc_finding_set)); }
size_t cc_finding_set_size(const cc_finding_set *s) { return s ? s->n : 0; }
const cc_finding *cc_finding_set_get(const cc_finding_set *s, size_t i) {
    return s && i < s->n ? s->items[i] : NULL;
}
size_t cc_finding_set_section_count(const cc_finding_set *s) { return s ? s->nsections : 0; }
const cc_report_origin *cc_finding_set_section(const cc_finding_set *s, size_t i) {
    return s && i < s->nsections ? &s->sections[i] : NULL;
}
size_t cc_finding_set_section_of(const cc_finding_set *s, size_t i) {
    return s && i < s->n ? s->section_of[i] : SIZE_MAX;
}
size_t cc_finding_set_note_count(const cc_finding_set *s) { return s ? s->nnotes : 0; }
const char *cc_finding_set_note(const cc_finding_set *s, size_t i) {
    return s && i < s->nnotes ? s->notes[i] : NULL;
}

void cc_finding_set_free(cc_finding_set *s) {
    if (!s) return;
    for (size_t i = 0; i < s->n; i++) free(s->items[i]);
    for (size_t i = 0; i < s->nnotes; i++) free(s->notes[i]);
    free(s->items);
    free(s->section_of);
    free(s->sections);
    free(s->notes);
    free(s);
}

/* ---- decoding records ---- */

typedef struct scratch { /* temporary arrays behind a decoded finding; freed after cloning */
    void **ptrs;
    size_t n, cap;
} scratch;

static void *scratch_alloc(scratch *s, size_t n, size_t elem) {
    if (CC_ARRAY_RESERVE(s->ptrs, s->cap, s->n + 1) != 0) return NULL;
    void *p = calloc(n ? n : 1, elem);
    if (p) s->ptrs[s->n++] = p;
    return p;
}

static void scratch_free(scratch *s) {
    for (size_t i = 0; i < s->n; i++) free(s->ptrs[i]);
    free(s->ptrs);
}

/* Optional string member: absent or null -> NULL; 0, or -1 if present with another type. */
static int opt_str(const cc_json *obj, const char *key, const char **out, const char **bad) {
    const cc_json *v = cc_json_get(obj, key);
    *out = NULL;
    if (!v || v->type == CC_JSON_NULL) return 0;
    if (v->type != CC_JSON_STRING) {
        *bad = key;
        return -1;
    }
    *out = v->str;
    return 0;
}

static int opt_u64(const cc_json *obj, const char *key, uint64_t *out, const char **bad) {
    const cc_json *v = cc_json_get(obj, key);
    if (!v) return 0;
    if (cc_json_u64(v, out) != 0) {
        *bad = key;
        return -1;
    }
    return 0;
}

static int opt_u32(const cc_json *obj, const char *key, uint32_t *out, const char **bad) {
    uint64_t v = *out;
    if (opt_u64(obj, key, &v, bad) != 0) return -1;
    if (v > UINT32_MAX) {
        *bad = key;
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static int dim3(const cc_json *obj, const char *key, uint32_t out[3], const char **bad) {
    const cc_json *v = cc_json_get(obj, key);
    if (!v || v->type != CC_JSON_ARRAY || v->len != 3) goto bad;
    for (size_t i = 0; i < 3; i++) {
        uint64_t u;
        if (cc_json_u64(v->items[i], &u) != 0 || u > UINT32_MAX) goto bad;
        out[i] = (uint32_t)u;
    }
    return 0;
bad:
    *bad = key;
    return -1;
}

static int decode_device(const cc_json *o, cc_device_loc *d, const char **bad) {
    memset(d, 0, sizeof *d);
    if (!o || o->type != CC_JSON_OBJECT) {
        *bad = "device";
        return -1;
    }
    if (cc_json_get(o, "kernel") || cc_json_get(o, "launch_id") || cc_json_get(o, "stream")) {
        d->valid |= CC_DLOC_KERNEL;
        if (opt_str(o, "kernel", &d->kernel, bad) ||
            opt_str(o, "kernel_mangled", &d->kernel_mangled, bad) ||
            opt_u64(o, "launch_id", &d->launch_id, bad) || opt_u64(o, "stream", &d->stream, bad))
            return -1;
    }
    if (cc_json_get(o, "pc")) {
        d->valid |= CC_DLOC_PC;
        if (opt_u64(o, "pc", &d->pc, bad)) return -1;
    }
    if (cc_json_get(o, "line") || cc_json_get(o, "file")) {
        d->valid |= CC_DLOC_LINE;
        if (opt_str(o, "file", &d->file, bad) || opt_u32(o, "line", &d->line, bad)) return -1;
    }
    if (cc_json_get(o, "thread") || cc_json_get(o, "block")) {
        d->valid |= CC_DLOC_THREAD;
        if (dim3(o, "block", d->block, bad) || dim3(o, "thread", d->thread, bad)) return -1;
    }
    if (cc_json_get(o, "address")) {
        d->valid |= CC_DLOC_ADDRESS;
        const char *acc = NULL, *sp = NULL;
        if (opt_u64(o, "address", &d->address, bad) || opt_u32(o, "size", &d->size, bad) ||
            opt_str(o, "access", &acc, bad) || opt_str(o, "space", &sp, bad))
            return -1;
        /* names unknown to this version read as none */
        if (cc_access_from_name(acc, &d->access) != 0) d->access = CC_ACCESS_NONE;
        if (cc_mem_space_from_name(sp, &d->space) != 0) d->space = CC_SPACE_NONE;
    }
    return 0;
}

static int decode_frames(const cc_json *obj, scratch *sc, const cc_stack_frame **out,
                         uint32_t *n, const char **bad) {
    const cc_json *a = cc_json_get(obj, "frames");
    *out = NULL;
    *n = 0;
    if (!a) return 0;
    if (a->type != CC_JSON_ARRAY || a->len > UINT32_MAX) goto bad;
    cc_stack_frame *fr = scratch_alloc(sc, a->len, sizeof *fr);
    if (!fr) goto bad;
    for (size_t i = 0; i < a->len; i++) {
        const cc_json *o = a->items[i];
        if (o->type != CC_JSON_OBJECT || opt_u64(o, "pc", &fr[i].pc, bad) ||
            opt_str(o, "text", &fr[i].text, bad))
            goto bad;
    }
    *out = fr;
    *n = (uint32_t)a->len;
    return 0;
bad:
    *bad = "frames";
    return -1;
}

static int decode_samples(const cc_json *arr, scratch *sc, cc_related **out, uint32_t *n,
                          const char **bad) {
    *out = NULL;
    *n = 0;
    if (!arr) return 0;
    if (arr->type != CC_JSON_ARRAY || arr->len > UINT32_MAX) goto bad;
    cc_related *rel = scratch_alloc(sc, arr->len, sizeof *rel);
    if (!rel) goto bad;
    for (size_t i = 0; i < arr->len; i++) {
        rel[i].role = CC_RELATED_SAMPLE;
        rel[i].has_device = 1;
        rel[i].device.valid = CC_DLOC_THREAD;
        if (dim3(arr->items[i], "block", rel[i].device.block, bad) ||
            dim3(arr->items[i], "thread", rel[i].device.thread, bad))
            goto bad;
    }
    *out = rel;
    *n = (uint32_t)arr->len;
    return 0;
bad:
    *bad = "samples";
    return -1;
}

/* Decodes a finding record into *f (strings borrowed from the JSON tree, arrays in sc). */
static int decode_finding(const cc_json *o, cc_finding *f, scratch *sc, const char **bad) {
    memset(f, 0, sizeof *f);
    const char *sev = NULL;
    if (opt_str(o, "tool", &f->tool, bad) || opt_str(o, "kind", &f->kind, bad) ||
        opt_str(o, "severity", &sev, bad) || opt_str(o, "message", &f->message, bad) ||
        opt_str(o, "test", &f->test, bad))
        return -1;
    if (!f->tool || !f->kind) {
        *bad = !f->tool ? "tool" : "kind";
        return -1;
    }
    if (cc_severity_from_name(sev, &f->severity) != 0) f->severity = CC_SEV_WARNING;
    f->count = 1;
    if (opt_u64(o, "count", &f->count, bad)) return -1;
    if (!f->count) f->count = 1;
    const cc_json *dev = cc_json_get(o, "device");
    if (dev) {
        f->has_device = 1;
        if (decode_device(dev, &f->device, bad)) return -1;
    }
    if (decode_frames(o, sc, &f->frames, &f->nframes, bad)) return -1;
    const cc_json *rel = cc_json_get(o, "related");
    if (rel && rel->type != CC_JSON_ARRAY) {
        *bad = "related";
        return -1;
    }
    cc_related *samples;
    uint32_t nsamples;
    if (decode_samples(cc_json_get(o, "samples"), sc, &samples, &nsamples, bad)) return -1;
    size_t nrel = rel ? rel->len : 0;
    if (nrel + nsamples > UINT32_MAX) {
        *bad = "related";
        return -1;
    }
    cc_related *r = scratch_alloc(sc, nrel + nsamples, sizeof *r);
    if (!r) {
        *bad = "related";
        return -1;
    }
    for (size_t i = 0; i < nrel; i++) {
        const cc_json *ro = rel->items[i];
        if (ro->type != CC_JSON_OBJECT || opt_str(ro, "role", &r[i].role, bad) ||
            opt_str(ro, "message", &r[i].message, bad) ||
            decode_frames(ro, sc, &r[i].frames, &r[i].nframes, bad)) {
            *bad = *bad ? *bad : "related";
            return -1;
        }
        const cc_json *rd = cc_json_get(ro, "device");
        if (rd) {
            r[i].has_device = 1;
            if (decode_device(rd, &r[i].device, bad)) return -1;
        }
    }
    if (nsamples) memcpy(r + nrel, samples, nsamples * sizeof *r);
    f->related = r;
    f->nrelated = (uint32_t)(nrel + nsamples);
    return 0;
}

/* ---- applying records ---- */

typedef struct loader {
    cc_finding_set *s;
    cc_hashmap ids;      /* finding id of the current section -> index into s */
    const char *path;
    const char *run_id;  /* read only this run's sections; NULL: all */
    size_t lineno;
    int reading;         /* the current section is read */
    int seen_header;
    size_t section;      /* the current section's index in s->sections; SIZE_MAX: none */
    size_t sections;     /* sections read */
    size_t damaged;      /* damaged lines reported (the first one is in err) */
    char *err;
    size_t errlen;
} loader;

/* Damage is this run's business inside a section that is read, and before the first header
 * (where a damaged header of this run could be). */
static int damage_in_scope(const loader *l) {
    return l->reading || !l->seen_header;
}

/* A damaged line: the first one goes to err, the others are counted. Always -1. */
static int failf(loader *l, const char *what, const char *detail) {
    if (!damage_in_scope(l)) return -1;
    if (l->damaged++ == 0 && l->err && l->errlen)
        snprintf(l->err, l->errlen, "%s:%zu: %s%s%s", l->path, l->lineno, what,
                 detail ? " " : "", detail ? detail : "");
    return -1;
}

static int add_finding(loader *l, const cc_json *o) {
    cc_finding f;
    scratch sc = {0};
    const char *bad = NULL;
    int rc = 0;
    if (decode_finding(o, &f, &sc, &bad) != 0) {
        char what[96];
        snprintf(what, sizeof what, "finding with a missing or malformed '%s'", bad ? bad : "?");
        rc = failf(l, what, NULL);
        goto out;
    }
    cc_finding *copy = cc_finding_clone(&f, NULL, 0);
    if (!copy || CC_ARRAY_RESERVE(l->s->items, l->s->cap, l->s->n + 1) != 0 ||
        CC_ARRAY_RESERVE(l->s->section_of, l->s->section_of_cap, l->s->n + 1) != 0) {
        free(copy);
        rc = failf(l, "out of memory", NULL);
        goto out;
    }
    l->s->items[l->s->n] = copy;
    uint64_t id;
    if (cc_json_u64(cc_json_get(o, "id"), &id) == 0 && id != 0 &&
        cc_hashmap_put(&l->ids, id, l->s->n) != 0) { /* a repeated id: the later one wins */
        free(copy);
        rc = failf(l, "out of memory", NULL);
        goto out;
    }
    l->s->section_of[l->s->n++] = l->section;
out:
    scratch_free(&sc);
    return rc;
}

static int apply_update(loader *l, const cc_json *o) {
    uint64_t id, count;
    if (cc_json_u64(cc_json_get(o, "id"), &id) != 0) return failf(l, "update without a valid 'id'", NULL);
    if (cc_json_u64(cc_json_get(o, "count"), &count) != 0)
        return failf(l, "update without a valid 'count'", NULL);
    const uint64_t *idx = cc_hashmap_get(&l->ids, id);
    if (!idx) return failf(l, "update for a finding id not seen before", NULL);
    const cc_finding *old = l->s->items[*idx];
    scratch sc = {0};
    const char *bad = NULL;
    cc_related *samples = NULL;
    uint32_t nsamples = 0;
    int rc = 0;
    const cc_json *sj = cc_json_get(o, "samples");
    if (decode_samples(sj, &sc, &samples, &nsamples, &bad) != 0) {
        rc = failf(l, "update with malformed 'samples'", NULL);
        goto out;
    }
    cc_finding tmp = *old;
    tmp.count = count ? count : 1;
    cc_related *keep = NULL;
    if (sj) { /* the update's samples replace the earlier ones */
        keep = scratch_alloc(&sc, old->nrelated, sizeof *keep);
        if (!keep) {
            rc = failf(l, "out of memory", NULL);
            goto out;
        }
        uint32_t k = 0;
        for (uint32_t i = 0; i < old->nrelated; i++) {
            const cc_related *r = &old->related[i];
            if (!(r->role && strcmp(r->role, CC_RELATED_SAMPLE) == 0)) keep[k++] = *r;
        }
        tmp.related = keep;
        tmp.nrelated = k;
    }
    cc_finding *copy = cc_finding_clone(&tmp, samples, nsamples);
    if (!copy) {
        rc = failf(l, "out of memory", NULL);
        goto out;
    }
    free(l->s->items[*idx]);
    l->s->items[*idx] = copy;
out:
    scratch_free(&sc);
    return rc;
}

static int add_note(loader *l, const cc_json *o) {
    const char *text = cc_json_str(cc_json_get(o, "text"));
    if (!text) return failf(l, "note without a 'text' string", NULL);
    char *copy = strdup(text);
    if (!copy || CC_ARRAY_RESERVE(l->s->notes, l->s->notes_cap, l->s->nnotes + 1) != 0) {
        free(copy);
        return failf(l, "out of memory", NULL);
    }
    l->s->notes[l->s->nnotes++] = copy;
    return 0;
}

/* A header key that is a whole number in [min, INT_MAX), or -1 (absent, or of an older or
 * damaged writer: the process is then of no known rank, never a damaged line). */
static int header_int(const cc_json *o, const char *key, uint64_t min) {
    uint64_t v;
    if (cc_json_u64(cc_json_get(o, key), &v) != 0 || v < min || v >= INT_MAX) return -1;
    return (int)v;
}

static int add_section(loader *l, const cc_json *o) {
    cc_finding_set *s = l->s;
    if (CC_ARRAY_RESERVE(s->sections, s->sections_cap, s->nsections + 1) != 0) {
        l->section = SIZE_MAX;
        return failf(l, "out of memory", NULL);
    }
    cc_report_origin *h = &s->sections[s->nsections];
    uint64_t pid = 0;
    h->pid = cc_json_u64(cc_json_get(o, "pid"), &pid) == 0 ? pid : 0;
    h->rank = header_int(o, "rank", 0);
    h->local_rank = header_int(o, "local_rank", 0);
    h->world_size = header_int(o, "world_size", 1);
    l->section = s->nsections++;
    return 0;
}

static int handle_record(loader *l, const cc_json *o) {
    if (o->type != CC_JSON_OBJECT) return failf(l, "record is not a JSON object", NULL);
    const char *type = cc_json_str(cc_json_get(o, "type"));
    if (!type) return failf(l, "record without a 'type' string", NULL);
    if (strcmp(type, "header") == 0) {
        cc_hashmap_clear(&l->ids); /* a new process section: ids start again */
        const char *run = cc_json_str(cc_json_get(o, "run"));
        l->seen_header = 1;
        l->reading = !l->run_id || (run && strcmp(run, l->run_id) == 0);
        if (l->reading) {
            l->sections++;
            return add_section(l, o);
        }
        return 0;
    }
    if (!l->reading) return 0; /* another run's record, or one before any header */
    if (strcmp(type, "finding") == 0) return add_finding(l, o);
    if (strcmp(type, "update") == 0) return apply_update(l, o);
    if (strcmp(type, "note") == 0) return add_note(l, o);
    return 0; /* summary and record types of later versions */
}

static int blank(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r') return 0;
    return 1;
}

static void load_lines(loader *l, FILE *f) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t got;
    while ((got = getline(&line, &cap, f)) > 0) {
        l->lineno++;
        size_t n = (size_t)got;
        int complete = line[n - 1] == '\n';
        if (complete) n--;
        if (blank(line, n)) continue;
        char perr[160];
        cc_json *v = cc_json_parse(line, n, perr, sizeof perr);
        if (!v) {
            if (complete) {
                failf(l, "not valid JSON:", perr);
                continue;
            }
            /* the writer died mid-line: what came before stands */
            if (damage_in_scope(l) && !l->damaged && l->err && l->errlen)
                snprintf(l->err, l->errlen,
                         "warning: %s:%zu: last line is incomplete (report cut short?); ignored",
                         l->path, l->lineno);
            break;
        }
        handle_record(l, v); /* a damaged record is counted in l and skipped */
        cc_json_free(v);
    }
    free(line);
}

/* Opens path for reading without following a link; NULL with err. */
static FILE *open_report(const char *path, char *err, size_t errlen) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    const char *why = NULL;
    if (fd < 0)
        why = errno == ELOOP ? "a symbolic link (not followed)" : strerror(errno);
    else if (fstat(fd, &st) != 0)
        why = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        why = "not a regular file";
    FILE *f = why ? NULL : fdopen(fd, "rb");
    if (!f) {
        if (!why) why = strerror(errno);
        if (err && errlen) snprintf(err, errlen, "%s: %s", path, why);
        if (fd >= 0) close(fd);
    }
    return f;
}

int cc_finding_set_load_report(cc_finding_set *s, const char *path, const char *run_id,
                               size_t *sections, char *err, size_t errlen) {
    if (err && errlen) err[0] = '\0';
    if (sections) *sections = 0;
    if (!s || !path) {
        if (err && errlen) snprintf(err, errlen, "no finding set or path");
        return -1;
    }
    FILE *f = open_report(path, err, errlen);
    if (!f) return -1;
    loader l = {.s = s, .path = path, .run_id = run_id, .reading = run_id == NULL,
                .section = SIZE_MAX,
                .err = err, .errlen = errlen};
    load_lines(&l, f);
    int rc = l.damaged ? 1 : 0;
    if (ferror(f)) {
        if (err && errlen) snprintf(err, errlen, "%s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc > 0 && l.damaged > 1 && err && errlen) {
        size_t k = strlen(err);
        snprintf(err + k, errlen - k, " (and %zu more damaged line%s)", l.damaged - 1,
                 l.damaged == 2 ? "" : "s");
    }
    if (sections) *sections = l.sections;
    cc_hashmap_free(&l.ids);
    fclose(f);
    return rc;
}

int cc_finding_set_load_jsonl(cc_finding_set *s, const char *path, char *err, size_t errlen) {
    return cc_finding_set_load_report(s, path, NULL, NULL, err, errlen);
}
