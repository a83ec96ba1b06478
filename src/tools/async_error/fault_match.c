/* GPU core dump faults for asynchronous-error attribution (see fault_match.h). */
#include "tools/async_error/fault_match.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *keep_str(char *dst, size_t len, const char *src)
{
    snprintf(dst, len, "%s", src ? src : "");
    return dst;
}

void cc_async_fault_keep(cc_async_fault *f, const cc_ev_device_fault *ev)
{
    if (f->valid) return;
    f->valid = 1;
    f->ev = *ev;
    f->kernel = strdup(ev->kernel ? ev->kernel : "");
    f->ev.kernel = f->kernel ? f->kernel : "";
    f->ev.file = keep_str(f->file, sizeof f->file, ev->file);
    f->ev.exception_name = keep_str(f->exception, sizeof f->exception, ev->exception_name);
    f->ev.dump = keep_str(f->dump, sizeof f->dump, ev->dump);
}

void cc_async_fault_free(cc_async_fault *f)
{
    free(f->kernel);
    f->kernel = NULL;
    f->ev.kernel = "";
}

static int is_whole_graph(const cc_inflight_launch *l)
{
    return l->graph_exec && strcmp(l->name, "(graph)") == 0;
}

const cc_inflight_launch *cc_async_fault_match(const cc_async_fault *f,
                                             const cc_inflight_launch *pending, size_t n,
                                             const char **how)
{
    const cc_inflight_launch *hit = NULL;
    size_t hits = 0;
    if (!f->valid) return NULL;
    if (f->ev.grid_id != 0) {
        for (size_t i = 0; i < n; i++) {
            if (is_whole_graph(&pending[i]) || pending[i].grid_id != f->ev.grid_id) continue;
            /* graph nodes reuse grid ids across graph launches: the kernel must agree too */
            if (f->ev.kernel[0] && strcmp(pending[i].name, f->ev.kernel) != 0) continue;
            hit = &pending[i];
            hits++;
        }
        if (hits == 1) {
            *how = "grid id";
            return hit;
        }
    }
    if (!f->ev.kernel[0]) return NULL;
    hit = NULL;
    hits = 0;
    for (size_t i = 0; i < n; i++) {
        const cc_inflight_launch *l = &pending[i];
        if (is_whole_graph(l) || strcmp(l->name, f->ev.kernel) != 0) continue;
        if (memcmp(l->grid, f->ev.grid, sizeof l->grid) != 0 ||
            memcmp(l->block, f->ev.block_dim, sizeof l->block) != 0)
            continue;
        hit = l;
        hits++;
    }
    if (hits == 1) {
        *how = "kernel and shape";
        return hit;
    }
    return NULL;
}

static void append(char *buf, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
    size_t at = strlen(buf);
    va_list ap;
    if (at + 1 >= len) return;
    va_start(ap, fmt);
    vsnprintf(buf + at, len - at, fmt, ap);
    va_end(ap);
}

void cc_async_fault_describe(const cc_async_fault *f, char *buf, size_t len)
{
    const cc_ev_device_fault *e = &f->ev;
    if (!len) return;
    buf[0] = '\0';
    append(buf, len, "%s at block (%u,%u,%u)",
           e->exception_name[0] ? e->exception_name : "device exception", e->block[0],
           e->block[1], e->block[2]);
    if (e->lane != UINT32_MAX)
        append(buf, len, " thread (%u,%u,%u)", e->thread[0], e->thread[1], e->thread[2]);
    if (e->pc)
        append(buf, len, ", pc 0x%" PRIx64, e->pc_offset);
    if (e->line)
        append(buf, len, ", %s:%u", e->file, e->line);
}

void cc_async_fault_device_loc(const cc_async_fault *f, const cc_inflight_launch *l,
                             cc_device_loc *out)
{
    const cc_ev_device_fault *e = &f->ev;
    memset(out, 0, sizeof *out);
    out->valid = CC_DLOC_KERNEL | CC_DLOC_THREAD;
    out->kernel = l->name;
    out->launch_id = l->launch_id;
    out->stream = l->stream;
    memcpy(out->block, e->block, sizeof out->block);
    memcpy(out->thread, e->thread, sizeof out->thread);
    if (e->pc) {
        out->valid |= CC_DLOC_PC;
        out->pc = e->pc_offset;
    }
    if (e->line) {
        out->valid |= CC_DLOC_LINE;
        out->file = e->file;
        out->line = e->line;
    }
}
