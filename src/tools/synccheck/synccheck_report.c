/* Synchronization misuses to findings: a CC_EV_DEVICE_SYNC_ERROR (occurrences of one launch at
 * one pc, found by the device patches and folded by the agent) becomes a sync-* finding at the
 * barrier, __syncwarp or shuffle (kernel demangled, file:line, pc, thread, block), with the
 * launch's host stack, and for warps at two different barriers the other one as the related
 * "other barrier". Severity error, but two are warnings: a shuffle run by part of its warp with
 * no mask to check, and a mask whose only fault is naming lanes that had exited or do not exist
 * (CUDA lets the call go on without them; what a shuffle reads from them is undefined). Repeats of one source location are folded (synccheck_fold.c): they are reported
 * with the first occurrence's places, so the reporter counts them as one finding. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tools/synccheck/synccheck.h"
#include "tools/kernel_name.h"

static const char *kind_id(uint32_t kind)
{
    switch (kind) {
    case CC_SYNC_WARP_DIVERGENT: return "sync-divergent-warp";
    case CC_SYNC_BLOCK_DIVERGENT: return "sync-divergent-block";
    case CC_SYNC_AFTER_EXIT: return "sync-after-exit";
    case CC_SYNC_SYNCWARP_MASK: return "sync-syncwarp-mask";
    case CC_SYNC_SHFL_MASK: return "sync-shfl-mask";
    default: return "sync-error";
    }
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

/* "step.cu:21" or "pc 0x1a0" */
static void place(char *out, size_t len, const char *file, uint32_t line, uint64_t pc)
{
    if (file != NULL && file[0] != '\0') {
        snprintf(out, len, "%s:%" PRIu32, base_name(file), line);
    } else {
        snprintf(out, len, "pc 0x%" PRIx64, pc);
    }
}

/* "thread (5,0,0) in block (0,0,0)" */
static void who(char *out, size_t len, const uint32_t thread[3], const uint32_t block[3])
{
    snprintf(out, len, "thread (%" PRIu32 ",%" PRIu32 ",%" PRIu32 ") in block (%" PRIu32 ",%"
             PRIu32 ",%" PRIu32 ")", thread[0], thread[1], thread[2], block[0], block[1],
             block[2]);
}

/* The causes a mask finding's flags name, joined with "; ". */
static void mask_causes(char *out, size_t len, const cc_ev_device_sync_error *e)
{
    size_t n = 0;
    out[0] = '\0';
#define CAUSE(flag, ...)                                                                  \
    if ((e->flags & (flag)) && n < len) {                                                 \
        n += (size_t)snprintf(out + n, len - n, "%s", n > 0 ? "; " : "");                 \
        if (n < len) {                                                                    \
            n += (size_t)snprintf(out + n, len - n, __VA_ARGS__);                         \
        }                                                                                 \
    }
    CAUSE(CC_SYNC_FLAG_NOT_IN_MASK, "the calling thread is not in the mask")
    CAUSE(CC_SYNC_FLAG_NO_THREAD, "it names lanes 0x%08" PRIx32 " past the block's last thread "
          "(allowed, as exited lanes, but what a shuffle reads from them is undefined)", e->lanes)
    CAUSE(CC_SYNC_FLAG_EXITED, "it names lanes 0x%08" PRIx32 " that had exited (allowed, but "
          "what a shuffle reads from them is undefined)", e->lanes)
    CAUSE(CC_SYNC_FLAG_EXIT_WAITED, "lanes 0x%08" PRIx32 " it names exited while the others "
          "waited for them", e->lanes)
#undef CAUSE
    if (n == 0) {
        snprintf(out, len, "it names lanes 0x%08" PRIx32 " that do not take part", e->lanes);
    }
}

/* Warnings: what may be correct, or is allowed but suspect. */
static int is_warning(const cc_ev_device_sync_error *e)
{
    const uint32_t errors = CC_SYNC_FLAG_NOT_IN_MASK | CC_SYNC_FLAG_EXIT_WAITED;
    if (e->kind != CC_SYNC_SHFL_MASK && e->kind != CC_SYNC_SYNCWARP_MASK) {
        return 0;
    }
    if (e->kind == CC_SYNC_SHFL_MASK && (e->flags & CC_SYNC_FLAG_MASK_UNKNOWN)) {
        return 1;
    }
    return (e->flags & (CC_SYNC_FLAG_EXITED | CC_SYNC_FLAG_NO_THREAD)) && !(e->flags & errors);
}

static void message(char *out, size_t len, const cc_ev_device_sync_error *e, const char *at,
                    const char *by, const char *other_at, const char *other_by)
{
    char causes[400];
    switch (e->kind) {
    case CC_SYNC_WARP_DIVERGENT:
        snprintf(out, len, "Barrier error: __syncthreads() at %s was reached by part of a warp: "
                 "lanes 0x%08" PRIx32 " of the warp of %s arrived there, its lanes 0x%08" PRIx32
                 " did not (they were elsewhere in the kernel)", at, e->mask, by, e->lanes);
        break;
    case CC_SYNC_BLOCK_DIVERGENT:
        snprintf(out, len, "Barrier error: warps of one block wait at different __syncthreads() "
                 "in the same round of barriers: %s at %s, %s at %s", by, at, other_by, other_at);
        break;
    case CC_SYNC_AFTER_EXIT:
        if (e->flags & CC_SYNC_FLAG_AT_EXIT) {
            snprintf(out, len, "Barrier error: %s exited while other threads of its block "
                     "waited at __syncthreads() at %s (%" PRIu32 " thread(s) of the block "
                     "exited without reaching it)", by, at, e->exited);
        } else {
            snprintf(out, len, "Barrier error: __syncthreads() at %s was reached after %" PRIu32
                     " thread(s) of the block exited (%s reached it)", at, e->exited, by);
        }
        break;
    case CC_SYNC_SHFL_MASK:
        if (e->flags & CC_SYNC_FLAG_MASK_UNKNOWN) {
            snprintf(out, len, "Shuffle at %s run by part of its warp: lanes 0x%08" PRIx32 " of "
                     "the warp of %s, while its lanes 0x%08" PRIx32 " were live but elsewhere; "
                     "its mask could not be read: a mask naming those lanes is invalid (a "
                     "warning)", at, e->mask, by, e->lanes);
            break;
        }
        mask_causes(causes, sizeof causes, e);
        snprintf(out, len, "Invalid shuffle mask 0x%08" PRIx32 " at %s (%s): %s", e->mask, at,
                 by, causes);
        break;
    default:
        mask_causes(causes, sizeof causes, e);
        snprintf(out, len, "Invalid __syncwarp() mask 0x%08" PRIx32 " at %s (%s): %s", e->mask,
                 at, by, causes);
        break;
    }
}

static void loc(cc_device_loc *d, sy_state *s, const cc_ev_device_sync_error *e, const char *kernel,
                uint64_t pc, const char *file, uint32_t line, const uint32_t thread[3])
{
    d->valid = CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_THREAD;
    cc_kernel_loc_name(d, s->names, kernel);
    d->launch_id = e->launch_id;
    d->pc = pc;
    if (file != NULL && file[0] != '\0') {
        d->valid |= CC_DLOC_LINE;
        d->file = file;
        d->line = line;
    }
    memcpy(d->block, e->block, sizeof d->block);
    memcpy(d->thread, thread, sizeof d->thread);
}

/* A folded repeat carries the representative's places: kernel, pcs, files and lines. */
static void with_places_of(cc_ev_device_sync_error *e, const cc_ev_device_sync_error *rep)
{
    e->kernel = rep->kernel;
    e->pc = rep->pc;
    e->file = rep->file;
    e->line = rep->line;
    e->other_pc = rep->other_pc;
    e->other_file = rep->other_file;
    e->other_line = rep->other_line;
}

void sy_on_sync_error(sy_state *s, const cc_ev_device_sync_error *event)
{
    cc_ev_device_sync_error e = *event;
    s->sync_events++;
    s->occurrences += e.count ? e.count : 1;
    const cc_book_launch *l = cc_launch_book_find(&s->launches, e.launch_id);
    int added = 0;
    const sy_fold_entry *fold = sy_fold_add(&s->folds, &e, l != NULL ? l->callsite : 0, &added);
    if (fold != NULL) {
        with_places_of(&e, &fold->rep);
    }
    const char *kernel = e.kernel != NULL ? e.kernel : "";
    int divergent_block = e.kind == CC_SYNC_BLOCK_DIVERGENT;

    char at[300], other_at[300], by[120], other_by[120], msg[1200];
    place(at, sizeof at, e.file, e.line, e.pc);
    place(other_at, sizeof other_at, e.other_file, e.other_line, e.other_pc);
    who(by, sizeof by, e.thread, e.block);
    who(other_by, sizeof other_by, e.other_thread, e.block);
    message(msg, sizeof msg, &e, at, by, other_at, other_by);

    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "synccheck";
    f.kind = kind_id(e.kind);
    f.severity = is_warning(&e) ? CC_SEV_WARNING : CC_SEV_ERROR;
    f.message = msg;
    f.has_device = 1;
    loc(&f.device, s, &e, kernel, e.pc, e.file, e.line, e.thread);
    f.count = e.count;
    if (l != NULL) {
        f.device.stream = l->stream;
        const cc_ev_host_stack *st = l->callsite ? s->host->stack(s->host, l->callsite) : NULL;
        f.nframes = st ? st->nframes : 0;
        f.frames = st ? st->frames : NULL;
    }
    cc_related other;
    char other_msg[460];
    if (divergent_block) {
        memset(&other, 0, sizeof other);
        snprintf(other_msg, sizeof other_msg, "%s waits at %s", other_by, other_at);
        other.role = "other barrier";
        other.message = other_msg;
        other.has_device = 1;
        loc(&other.device, s, &e, kernel, e.other_pc, e.other_file, e.other_line,
            e.other_thread);
        other.device.stream = f.device.stream;
        f.nrelated = 1;
        f.related = &other;
    }
    s->host->report(s->host, &f);
}
