/* The dedup key by which the reporter folds repeated findings into one with a count: what stays
 * the same across occurrences of one bug (tool, kind, kernel, pc, file:line, access, space, top
 * host frames, the pc of a race's previous access inside the same kernel) and the test it was
 * made in (the same bug in two tests is reported in each), never what varies per occurrence
 * (thread, block, address). */
#include "core/finding_util.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Fields are separated by \x1f (unit separator) so that no ordinary text can fake a boundary. */
char *cc_finding_dedup_key(const cc_finding *f) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return NULL;
    fprintf(m, "%s\x1f%s", f->tool ? f->tool : "", f->kind ? f->kind : "");
    if (f->has_device) {
        const cc_device_loc *d = &f->device;
        fprintf(m, "\x1f" "d%" PRIu32, d->valid & (CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_LINE));
        if (d->valid & CC_DLOC_KERNEL) fprintf(m, "\x1fk%s", d->kernel ? d->kernel : "");
        if (d->valid & CC_DLOC_PC) fprintf(m, "\x1fp%" PRIx64, d->pc);
        if (d->valid & CC_DLOC_LINE)
            fprintf(m, "\x1f" "f%s:%" PRIu32, d->file ? d->file : "", d->line);
        if (d->valid & CC_DLOC_ADDRESS)
            fprintf(m, "\x1f" "a%" PRIu32 "/%" PRIu32, d->access, d->space);
        /* the other side of a race inside a kernel (racecheck): a pair of pcs is one bug */
        for (uint32_t i = 0; f->related && i < f->nrelated; i++) {
            const cc_related *r = &f->related[i];
            if (r->has_device && (r->device.valid & CC_DLOC_PC) && r->role &&
                strcmp(r->role, "previous access") == 0)
                fprintf(m, "\x1fo%" PRIx64, r->device.pc);
        }
    } else {
        fprintf(m, "\x1fm%s", f->message ? f->message : "");
    }
    if (f->test) fprintf(m, "\x1ft%s", f->test);
    uint32_t n = f->frames ? f->nframes : 0;
    if (n > CC_DEDUP_FRAMES) n = CC_DEDUP_FRAMES;
    for (uint32_t i = 0; i < n; i++) {
        if (f->frames[i].text) fprintf(m, "\x1fh%s", f->frames[i].text);
        else fprintf(m, "\x1fh#%" PRIx64, f->frames[i].pc);
    }
    if (fclose(m) != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
