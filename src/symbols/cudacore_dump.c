/* GPU core dump reader (see cudacore_dump.h): walks the lane and warp tables for the thread that
 * faulted and follows sh_link/sh_info up to its block, SM and device, then finds its grid in
 * the grid tables and its module's relocated ELF image. Every row read is checked against its
 * table's size; a row shorter than a field reads that field as 0. */
#include "symbols/cudacore_dump.h"

#include <stdio.h>
#include <string.h>

#include "symbols/elf.h"

typedef struct table {
    const unsigned char *data;
    uint64_t entsize, count;
    uint32_t index, type, link, info;
} table;

/* The dump's own section table reader: real dumps of a full GPU hold hundreds of thousands of
 * sections (one lane table per warp), past the 16-bit counts of symbols/elf.h, so the count
 * comes from section 0's sh_size when e_shnum is 0 (ELF extended numbering). */
typedef struct dump {
    const unsigned char *p;
    size_t size;
    uint64_t shoff, shentsize;
    uint32_t shnum;
} dump;

typedef struct sect {
    uint32_t type, link, info;
    uint64_t addr, size, entsize;
    const unsigned char *data; /* NULL for SHT_NOBITS or contents outside the file */
} sect;

static int in_file(const dump *d, uint64_t off, uint64_t len)
{
    return off <= d->size && len <= d->size - off;
}

static int dump_open(dump *d, const void *data, size_t size, char *err, size_t errlen)
{
    const unsigned char *p = data;
    memset(d, 0, sizeof *d);
    if (!data || size < 64 || memcmp(p, "\177ELF", 4) != 0) {
        snprintf(err, errlen, "not an ELF file");
        return -1;
    }
    if (p[4] != 2 || p[5] != 1) {
        snprintf(err, errlen, "unsupported ELF class/encoding (only 64-bit little-endian)");
        return -1;
    }
    d->p = p;
    d->size = size;
    d->shoff = cc_le64(p + 40);
    d->shentsize = cc_le16(p + 58);
    uint64_t n = cc_le16(p + 60);
    if (d->shoff == 0)
        return 0;
    if (d->shentsize < 64 || !in_file(d, d->shoff, 64)) {
        snprintf(err, errlen, "bad section table (offset %llu, entry size %llu)",
                 (unsigned long long)d->shoff, (unsigned long long)d->shentsize);
        return -1;
    }
    if (n == 0)
        n = cc_le64(p + d->shoff + 32); /* extended numbering: section 0's sh_size */
    if (n > UINT32_MAX || n > (d->size - d->shoff) / d->shentsize) {
        snprintf(err, errlen, "section table (%llu entries) outside the file",
                 (unsigned long long)n);
        return -1;
    }
    d->shnum = (uint32_t)n;
    return 0;
}

static int dump_section(const dump *d, uint32_t i, sect *s)
{
    memset(s, 0, sizeof *s);
    if (i >= d->shnum)
        return -1;
    const unsigned char *h = d->p + d->shoff + (uint64_t)i * d->shentsize;
    s->type = cc_le32(h + 4);
    s->addr = cc_le64(h + 16);
    uint64_t off = cc_le64(h + 24);
    s->size = cc_le64(h + 32);
    s->link = cc_le32(h + 40);
    s->info = cc_le32(h + 44);
    s->entsize = cc_le64(h + 56);
    if (s->type != 8u && in_file(d, off, s->size))
        s->data = d->p + off;
    return 0;
}

static int get_table(const dump *e, uint32_t idx, uint32_t want_type, table *t)
{
    sect s;
    memset(t, 0, sizeof *t);
    if (idx == 0 || dump_section(e, idx, &s) != 0 || !s.data)
        return -1;
    if (want_type && s.type != want_type)
        return -1;
    t->data = s.data;
    t->entsize = s.entsize;
    t->count = s.entsize ? s.size / s.entsize : 0;
    t->index = idx;
    t->type = s.type;
    t->link = s.link;
    t->info = s.info;
    return 0;
}

static uint32_t r32(const table *t, uint64_t row, uint32_t off)
{
    if (row >= t->count || (uint64_t)off + 4 > t->entsize)
        return 0;
    return cc_le32(t->data + row * t->entsize + off);
}

static uint64_t r64(const table *t, uint64_t row, uint32_t off)
{
    if (row >= t->count || (uint64_t)off + 8 > t->entsize)
        return 0;
    return cc_le64(t->data + row * t->entsize + off);
}

static int has_device_table(const dump *d)
{
    for (uint32_t i = 1; i < d->shnum; i++) {
        sect s;
        if (dump_section(d, i, &s) == 0 && s.type == CC_CUDBG_SHT_DEV_TABLE)
            return 1;
    }
    return 0;
}

int cc_cudacore_is_dump(const void *data, size_t size)
{
    dump d;
    char err[64];
    return dump_open(&d, data, size, err, sizeof err) == 0 && has_device_table(&d);
}

/* The chain warp row -> CTA row -> SM row -> device row; fills block, sm, device. */
static int resolve_warp(const dump *e, const table *wt, uint64_t wrow, cc_cudacore_fault *f,
                        char *err, size_t errlen)
{
    table ct, st, dt;
    if (wrow >= wt->count) {
        snprintf(err, errlen, "warp row %llu outside its table (section %u)",
                 (unsigned long long)wrow, wt->index);
        return -1;
    }
    if (get_table(e, wt->link, CC_CUDBG_SHT_CTA_TABLE, &ct) != 0 || wt->info >= ct.count) {
        snprintf(err, errlen, "warp table (section %u) names no valid block row", wt->index);
        return -1;
    }
    uint64_t crow = wt->info;
    if (get_table(e, ct.link, CC_CUDBG_SHT_SM_TABLE, &st) != 0 || ct.info >= st.count) {
        snprintf(err, errlen, "block table (section %u) names no valid SM row", ct.index);
        return -1;
    }
    f->warp = r32(wt, wrow, CC_CUDBG_WP_ID);
    f->grid_id = r64(&ct, crow, CC_CUDBG_CTA_GRID);
    for (int i = 0; i < 3; i++)
        f->block[i] = r32(&ct, crow, CC_CUDBG_CTA_BLOCK + 4u * (uint32_t)i);
    f->sm = r32(&st, ct.info, CC_CUDBG_SM_ID);
    /* The SM table's sh_info is its row of the device table (sh_link may be 0). */
    f->device = 0;
    for (uint32_t i = 1; i < e->shnum; i++) {
        if (get_table(e, i, CC_CUDBG_SHT_DEV_TABLE, &dt) == 0) {
            f->device = st.info < dt.count ? r32(&dt, st.info, CC_CUDBG_DEV_ID) : 0;
            break;
        }
    }
    return 0;
}

static void find_grid(const dump *e, cc_cudacore_fault *f)
{
    table gt;
    for (uint32_t i = 1; i < e->shnum && !f->grid_found; i++) {
        if (get_table(e, i, CC_CUDBG_SHT_GRID_TABLE, &gt) != 0)
            continue;
        for (uint64_t r = 0; r < gt.count; r++) {
            if (r64(&gt, r, CC_CUDBG_GRID_ID) != f->grid_id)
                continue;
            f->grid_found = 1;
            f->context = r64(&gt, r, CC_CUDBG_GRID_CONTEXT);
            f->function = r64(&gt, r, CC_CUDBG_GRID_FUNCTION);
            f->function_entry = r64(&gt, r, CC_CUDBG_GRID_ENTRY);
            f->module = r64(&gt, r, CC_CUDBG_GRID_MODULE);
            for (int k = 0; k < 3; k++) {
                f->grid_dim[k] = r32(&gt, r, CC_CUDBG_GRID_DIM + 4u * (uint32_t)k);
                f->block_dim[k] = r32(&gt, r, CC_CUDBG_GRID_BLOCKDIM + 4u * (uint32_t)k);
            }
            f->host_tid = r32(&gt, r, CC_CUDBG_GRID_HOST_TID);
            break;
        }
    }
    if (!f->grid_found)
        return;
    for (uint32_t i = 1; i < e->shnum; i++) {
        sect s;
        table mt;
        if (dump_section(e, i, &s) != 0 || s.type != CC_CUDBG_SHT_RELF_IMG || !s.data)
            continue;
        if (get_table(e, s.link, CC_CUDBG_SHT_MOD_TABLE, &mt) != 0 || s.info >= mt.count)
            continue;
        if (r64(&mt, s.info, CC_CUDBG_MOD_HANDLE) == f->module) {
            f->image = s.data;
            f->image_size = (size_t)s.size;
            return;
        }
    }
}

int cc_cudacore_parse(const void *data, size_t size, cc_cudacore_fault *out, char *err,
                      size_t errlen)
{
    dump e;
    memset(out, 0, sizeof *out);
    out->lane = UINT32_MAX;
    if (dump_open(&e, data, size, err, errlen) != 0)
        return -1;
    if (!has_device_table(&e)) {
        snprintf(err, errlen, "not a GPU core dump (no device table section)");
        return -1;
    }
    int have_lane = 0, have_warp = 0;
    table pick_wt;
    uint64_t pick_wrow = 0, lane_pc = 0;
    memset(&pick_wt, 0, sizeof pick_wt);
    for (uint32_t i = 1; i < e.shnum; i++) {
        table t, wt;
        if (get_table(&e, i, 0, &t) != 0)
            continue;
        if (t.type == CC_CUDBG_SHT_LN_TABLE) {
            if (get_table(&e, t.link, CC_CUDBG_SHT_WP_TABLE, &wt) != 0 || t.info >= wt.count)
                continue; /* a lane table without a valid warp: ignored */
            for (uint64_t r = 0; r < t.count; r++) {
                uint32_t ex = r32(&t, r, CC_CUDBG_LN_EXCEPTION);
                if (ex == 0)
                    continue;
                out->faulting_lanes++;
                if (have_lane)
                    continue;
                have_lane = 1;
                pick_wt = wt;
                pick_wrow = t.info;
                out->lane = r32(&t, r, CC_CUDBG_LN_ID);
                out->exception = ex;
                for (int k = 0; k < 3; k++)
                    out->thread[k] = r32(&t, r, CC_CUDBG_LN_THREAD + 4u * (uint32_t)k);
                lane_pc = r64(&t, r, CC_CUDBG_LN_PC);
            }
        } else if (t.type == CC_CUDBG_SHT_WP_TABLE) {
            for (uint64_t r = 0; r < t.count; r++) {
                if (!r32(&t, r, CC_CUDBG_WP_ERROR_PC_VALID) && !r32(&t, r, CC_CUDBG_WP_BROKEN))
                    continue;
                out->faulting_warps++;
                if (!have_warp) {
                    have_warp = 1;
                    if (!have_lane) {
                        pick_wt = t;
                        pick_wrow = r;
                    }
                }
            }
        }
    }
    if (!have_lane && !have_warp) {
        snprintf(err, errlen, "the dump holds no warp with an exception or an error PC");
        return 0;
    }
    if (resolve_warp(&e, &pick_wt, pick_wrow, out, err, errlen) != 0)
        return -1;
    if (r32(&pick_wt, pick_wrow, CC_CUDBG_WP_ERROR_PC_VALID)) {
        out->pc = r64(&pick_wt, pick_wrow, CC_CUDBG_WP_ERROR_PC);
        out->pc_valid = 1;
    } else if (have_lane && lane_pc) {
        out->pc = lane_pc;
        out->pc_valid = 1;
    }
    find_grid(&e, out);
    return 1;
}

const char *cc_cudacore_exception_name(uint32_t code)
{
    static const char *const names[] = {
        [0] = "no lane exception",
        [4] = "Warp - Illegal instruction",
        [5] = "Warp - Out of range address",
        [6] = "Warp - Misaligned address",
        [7] = "Warp - Invalid address space",
        [8] = "Warp - Invalid PC",
        [9] = "Warp - Hardware stack overflow",
        [10] = "Device - Illegal address",
        [12] = "Warp - Assert",
        [14] = "Warp - Illegal address",
        [17] = "Cluster - Out of range address",
        [18] = "Cluster - Block not present",
        [19] = "Warp - Stack canary",
        [20] = "Warp - TMEM access check",
        [21] = "Warp - TMEM leak",
        [22] = "Warp - Call requires newer driver",
        [23] = "Warp - Misaligned PC",
        [24] = "Warp - PC overflow",
        [25] = "Warp - Misaligned register",
        [26] = "Warp - Illegal instruction encoding",
        [27] = "Warp - Illegal instruction parameter",
        [28] = "Warp - Out of range register",
        [29] = "Warp - Invalid constant address",
        [30] = "Warp - MMU fault",
        [31] = "Warp - Arrive (mbarrier)",
        [32] = "Cluster - Poison",
        [33] = "Warp - API stack error",
        [34] = "Warp - Block not present",
        [35] = "Warp - User stack overflow",
        [36] = "TMA syscall error",
    };
    /* Codes 1-3, 11, 13, 15, 16 were lane-level exceptions of older drivers. */
    static const char *const old[] = {
        [1] = "Lane - Illegal address",
        [2] = "Lane - User stack overflow",
        [3] = "Device - Hardware stack overflow",
        [11] = "Lane - Misaligned address",
        [13] = "Lane - Syscall error",
        [15] = "Lane - Non-migratable atomic",
        [16] = "Lane - Invalid atomic",
    };
    if (code < sizeof names / sizeof names[0] && names[code])
        return names[code];
    if (code < sizeof old / sizeof old[0] && old[code])
        return old[code];
    return "unknown exception";
}
