/* Races to findings: a CC_EV_DEVICE_RACE (hazards of one launch between two accesses, found by
 * the device patches and folded by the agent) becomes a race-raw, race-war or race-waw finding
 * (severity error; a write-after-write of the same value is a warning), at the second access
 * (kernel demangled, file:line, pc, thread, block, address, size), with the first access as the
 * related "previous access" and the launch's host stack. Repeats of one pair of source locations
 * are folded (racecheck_fold.c): they are reported with the first occurrence's places, so the
 * reporter counts them as one finding. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "tools/racecheck/racecheck.h"
#include "tools/kernel_name.h"

static const char *kind_id(uint32_t kind)
{
    switch (kind) {
    case CC_RACE_RAW: return "race-raw";
    case CC_RACE_WAR: return "race-war";
    case CC_RACE_WAW: return "race-waw";
    default: return "race";
    }
}

static const char *kind_words(uint32_t kind)
{
    switch (kind) {
    case CC_RACE_RAW: return "read-after-write";
    case CC_RACE_WAR: return "write-after-read";
    case CC_RACE_WAW: return "write-after-write";
    default: return "unordered accesses";
    }
}

static uint32_t access_of(uint32_t flags)
{
    if (flags & CC_ACCESS_FLAG_ATOMIC) {
        return CC_ACCESS_ATOMIC;
    }
    return (flags & CC_ACCESS_FLAG_WRITE) ? CC_ACCESS_WRITE : CC_ACCESS_READ;
}

static const char *verb(uint32_t flags)
{
    if (flags & CC_ACCESS_FLAG_ATOMIC) {
        return "updates atomically";
    }
    if ((flags & CC_ACCESS_FLAG_READ) && (flags & CC_ACCESS_FLAG_WRITE)) {
        return "reads and writes";
    }
    return (flags & CC_ACCESS_FLAG_WRITE) ? "writes" : "reads";
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

/* "reduce.cu:21" or "pc 0x1a0" */
static void place(char *out, size_t len, const cc_ev_race_side *side)
{
    if (side->file != NULL && side->file[0] != '\0') {
        snprintf(out, len, "%s:%" PRIu32, base_name(side->file), side->line);
    } else {
        snprintf(out, len, "pc 0x%" PRIx64, side->pc);
    }
}

/* "thread (5,0,0) in block (0,0,0) writes at reduce.cu:21" */
static void side_text(char *out, size_t len, const cc_ev_race_side *side, const char *where)
{
    snprintf(out, len, "thread (%" PRIu32 ",%" PRIu32 ",%" PRIu32 ") in block (%" PRIu32 ",%"
             PRIu32 ",%" PRIu32 ") %s at %s", side->thread[0], side->thread[1], side->thread[2],
             side->block[0], side->block[1], side->block[2], verb(side->flags), where);
}

/* What should have ordered the two accesses. */
static const char *missing_order(const cc_ev_device_race *e)
{
    if (e->space != CC_SPACE_SHARED) {
        return "with nothing ordering them (no grid-wide barrier, no fence or acquire/release "
               "pairing, not atomic on both sides)";
    }
    if (e->flags & CC_RACE_FLAG_INTRA_WARP) {
        return "in one warp with no __syncwarp() between them";
    }
    if (e->flags & CC_RACE_FLAG_CLUSTER) {
        return "with no cluster barrier (cluster.sync()) between them";
    }
    return "with no __syncthreads() between them";
}

static void message(char *out, size_t len, const cc_ev_device_race *e, const char *first,
                    const char *second)
{
    char memory[96];
    if (e->space == CC_SPACE_SHARED) {
        snprintf(memory, sizeof memory, "%s memory at offset 0x%" PRIx64,
                 (e->flags & CC_RACE_FLAG_CLUSTER) ? "distributed shared (cluster)" : "__shared__",
                 e->address);
    } else {
        snprintf(memory, sizeof memory, "global memory at 0x%" PRIx64, e->address);
    }
    int same = e->kind == CC_RACE_WAW && (e->flags & CC_RACE_FLAG_SAME_VALUE);
    snprintf(out, len, "Race (%s) on %s (%" PRIu32 " bytes): %s, %s %s%s", kind_words(e->kind),
             memory, e->second.size, first, second, missing_order(e),
             same ? "; both wrote the same value (a warning: the result does not depend on the "
                    "order today, but it is still a race)" : "");
}

static void side_loc(cc_device_loc *d, rc_state *s, const cc_ev_device_race *e,
                     const cc_ev_race_side *side, const char *kernel)
{
    d->valid = CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_THREAD | CC_DLOC_ADDRESS;
    cc_kernel_loc_name(d, s->names, kernel);
    d->launch_id = e->launch_id;
    d->pc = side->pc;
    if (side->file != NULL && side->file[0] != '\0') {
        d->valid |= CC_DLOC_LINE;
        d->file = side->file;
        d->line = side->line;
    }
    memcpy(d->block, side->block, sizeof d->block);
    memcpy(d->thread, side->thread, sizeof d->thread);
    d->address = e->address;
    d->size = side->size;
    d->access = access_of(side->flags);
    d->space = e->space != 0 ? e->space : CC_SPACE_GLOBAL;
}

/* A folded repeat carries the representative's places: kernel, pcs, files and lines. */
static void with_places_of(cc_ev_device_race *e, const cc_ev_device_race *rep)
{
    e->kernel = rep->kernel;
    e->first.pc = rep->first.pc;
    e->first.file = rep->first.file;
    e->first.line = rep->first.line;
    e->second.pc = rep->second.pc;
    e->second.file = rep->second.file;
    e->second.line = rep->second.line;
}

void rc_on_race(rc_state *s, const cc_ev_device_race *event)
{
    cc_ev_device_race e = *event;
    s->race_events++;
    s->hazards += e.count ? e.count : 1;
    const cc_book_launch *l = cc_launch_book_find(&s->launches, e.launch_id);
    int added = 0;
    const rc_fold_entry *fold = rc_fold_add(&s->folds, &e, l != NULL ? l->callsite : 0, &added);
    if (fold != NULL) {
        with_places_of(&e, &fold->rep);
    }
    const char *kernel = e.kernel != NULL ? e.kernel : "";

    char first_place[300], second_place[300], first[400], second[400], msg[1100];
    place(first_place, sizeof first_place, &e.first);
    place(second_place, sizeof second_place, &e.second);
    side_text(first, sizeof first, &e.first, first_place);
    side_text(second, sizeof second, &e.second, second_place);
    message(msg, sizeof msg, &e, first, second);

    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "racecheck";
    f.kind = kind_id(e.kind);
    int same = e.kind == CC_RACE_WAW && (e.flags & CC_RACE_FLAG_SAME_VALUE);
    f.severity = same ? CC_SEV_WARNING : CC_SEV_ERROR;
    f.message = msg;
    f.has_device = 1;
    side_loc(&f.device, s, &e, &e.second, kernel);
    f.count = e.count;
    if (l != NULL) {
        f.device.stream = l->stream;
        const cc_ev_host_stack *st = l->callsite ? s->host->stack(s->host, l->callsite) : NULL;
        f.nframes = st ? st->nframes : 0;
        f.frames = st ? st->frames : NULL;
    }
    cc_related prev;
    char prev_msg[520];
    memset(&prev, 0, sizeof prev);
    snprintf(prev_msg, sizeof prev_msg, "%s (%" PRIu32 " bytes)", first, e.first.size);
    prev.role = "previous access";
    prev.message = prev_msg;
    prev.has_device = 1;
    side_loc(&prev.device, s, &e, &e.first, kernel);
    prev.device.stream = f.device.stream;
    f.nrelated = 1;
    f.related = &prev;
    s->host->report(s->host, &f);
}
