/* Deep copies of findings: the finding, its host frames, its related places and every string,
 * laid out in a single allocation so that one free() releases it. */
#include "core/finding_util.h"

#include <stdlib.h>
#include <string.h>

typedef struct layout {
    size_t structs; /* bytes of struct arrays (all pointer-aligned) */
    size_t chars;   /* bytes of string data */
} layout;

static void count_str(layout *l, const char *s) {
    if (s) l->chars += strlen(s) + 1;
}

static void count_frames(layout *l, const cc_stack_frame *fr, uint32_t n) {
    if (!fr || !n) return;
    l->structs += n * sizeof(cc_stack_frame);
    for (uint32_t i = 0; i < n; i++) count_str(l, fr[i].text);
}

static void count_device(layout *l, const cc_device_loc *d) {
    count_str(l, d->kernel);
    count_str(l, d->kernel_mangled);
    count_str(l, d->file);
}

static void count_related(layout *l, const cc_related *r) {
    count_str(l, r->role);
    count_str(l, r->message);
    count_device(l, &r->device);
    count_frames(l, r->frames, r->nframes);
}

typedef struct cursor {
    char *structs, *chars;
} cursor;

static void *take(cursor *c, size_t n) {
    void *p = c->structs;
    c->structs += n;
    return p;
}

static const char *copy_str(cursor *c, const char *s) {
    if (!s) return NULL;
    size_t n = strlen(s) + 1;
    char *d = c->chars;
    memcpy(d, s, n);
    c->chars += n;
    return d;
}

static const cc_stack_frame *copy_frames(cursor *c, const cc_stack_frame *fr, uint32_t n) {
    if (!fr || !n) return NULL;
    cc_stack_frame *d = take(c, n * sizeof *d);
    for (uint32_t i = 0; i < n; i++) {
        d[i].pc = fr[i].pc;
        d[i].text = copy_str(c, fr[i].text);
    }
    return d;
}

static void copy_device(cursor *c, cc_device_loc *d, const cc_device_loc *s) {
    *d = *s;
    d->kernel = copy_str(c, s->kernel);
    d->kernel_mangled = copy_str(c, s->kernel_mangled);
    d->file = copy_str(c, s->file);
}

static void copy_related(cursor *c, cc_related *d, const cc_related *s) {
    *d = *s;
    d->role = copy_str(c, s->role);
    d->message = copy_str(c, s->message);
    copy_device(c, &d->device, &s->device);
    d->frames = copy_frames(c, s->frames, s->nframes);
    d->nframes = d->frames ? s->nframes : 0;
}

cc_finding *cc_finding_clone(const cc_finding *f, const cc_related *extra, uint32_t nextra) {
    uint32_t nrel = f->related ? f->nrelated : 0;
    if (!extra) nextra = 0;
    if ((uint64_t)nrel + nextra > UINT32_MAX) return NULL;
    layout l = {sizeof(cc_finding), 0};
    count_str(&l, f->tool);
    count_str(&l, f->kind);
    count_str(&l, f->message);
    count_str(&l, f->test);
    count_device(&l, &f->device);
    count_frames(&l, f->frames, f->nframes);
    l.structs += ((size_t)nrel + nextra) * sizeof(cc_related);
    for (uint32_t i = 0; i < nrel; i++) count_related(&l, &f->related[i]);
    for (uint32_t i = 0; i < nextra; i++) count_related(&l, &extra[i]);

    char *block = malloc(l.structs + l.chars);
    if (!block) return NULL;
    cursor c = {block, block + l.structs};
    cc_finding *d = take(&c, sizeof *d);
    *d = *f;
    d->tool = copy_str(&c, f->tool);
    d->kind = copy_str(&c, f->kind);
    d->message = copy_str(&c, f->message);
    d->test = copy_str(&c, f->test);
    copy_device(&c, &d->device, &f->device);
    d->frames = copy_frames(&c, f->frames, f->nframes);
    d->nframes = d->frames ? f->nframes : 0;
    d->nrelated = nrel + nextra;
    if (d->nrelated) {
        cc_related *rel = take(&c, d->nrelated * sizeof *rel);
        for (uint32_t i = 0; i < nrel; i++) copy_related(&c, &rel[i], &f->related[i]);
        for (uint32_t i = 0; i < nextra; i++) copy_related(&c, &rel[nrel + i], &extra[i]);
        d->related = rel;
    } else {
        d->related = NULL;
    }
    return d;
}
