/* synccheck's fold table (src/tools/synccheck/synccheck_fold.c): occurrences of one source
 * location fold into one entry whatever their pcs, threads and blocks, with the counts added (an
 * event's count 0 counts as 1) and the first event's places kept (its strings copied); a
 * divergent block's two barriers fold in either order; a different kind, kernel, callsite, line
 * or cause (flags) opens a new entry, but where an after-exit was found (at the barrier or at
 * the exit) does not; without line information the pcs are the places. */
#include <string.h>
#include "check.h"
#include "tools/synccheck/synccheck_fold.h"

static cc_ev_device_sync_error sync_error(uint32_t kind, uint64_t pc, uint32_t line)
{
    cc_ev_device_sync_error e;
    memset(&e, 0, sizeof e);
    e.launch_id = 1;
    e.kernel = "_Z12half_barrierPi";
    e.kind = kind;
    e.pc = pc;
    e.file = line ? "step.cu" : "";
    e.line = line;
    e.mask = 0x0000ffffu;
    e.lanes = 0xffff0000u;
    e.count = 2;
    return e;
}

static cc_ev_device_sync_error pair(uint64_t pc, uint32_t line, uint64_t opc, uint32_t oline)
{
    cc_ev_device_sync_error e = sync_error(CC_SYNC_BLOCK_DIVERGENT, pc, line);
    e.other_pc = opc;
    e.other_file = oline ? "step.cu" : "";
    e.other_line = oline;
    e.other_thread[0] = 32;
    return e;
}

int main(void)
{
    sy_fold f;
    sy_fold_init(&f);
    int added = 0;
    char kernel[32] = "_Z12half_barrierPi";
    cc_ev_device_sync_error e = sync_error(CC_SYNC_WARP_DIVERGENT, 0x1a0, 21);
    e.kernel = kernel;
    const sy_fold_entry *a = sy_fold_add(&f, &e, 0x10, &added);
    CHECK(a != NULL && added == 1);
    memset(kernel, 'x', sizeof kernel - 1); /* the event's strings die with the event */

    /* the same line at another pc, thread and block: folded, count 0 counts 1 */
    cc_ev_device_sync_error same = sync_error(CC_SYNC_WARP_DIVERGENT, 0x2a0, 21);
    same.block[0] = 3;
    same.thread[0] = 32;
    same.count = 0;
    const sy_fold_entry *b = sy_fold_add(&f, &same, 0x10, &added);
    CHECK(b == a && added == 0);
    CHECK_EQ_U64(b->count, 3);
    CHECK_STR(b->rep.kernel, "_Z12half_barrierPi");
    CHECK_EQ_U64(b->rep.pc, 0x1a0);
    CHECK_STR(b->rep.file, "step.cu");

    /* what opens a new fold */
    cc_ev_device_sync_error other_line = sync_error(CC_SYNC_WARP_DIVERGENT, 0x1a0, 22);
    CHECK(sy_fold_add(&f, &other_line, 0x10, &added) != a && added == 1);
    cc_ev_device_sync_error elsewhere = sync_error(CC_SYNC_WARP_DIVERGENT, 0x1a0, 21);
    CHECK(sy_fold_add(&f, &elsewhere, 0x20, &added) != a && added == 1); /* another callsite */
    cc_ev_device_sync_error exit_kind = sync_error(CC_SYNC_AFTER_EXIT, 0x1a0, 21);
    const sy_fold_entry *x = sy_fold_add(&f, &exit_kind, 0x10, &added);
    CHECK(x != a && added == 1);
    exit_kind.flags = CC_SYNC_FLAG_AT_EXIT; /* found at the exit: the same bug */
    CHECK(sy_fold_add(&f, &exit_kind, 0x10, &added) == x && added == 0);
    cc_ev_device_sync_error sw = sync_error(CC_SYNC_SYNCWARP_MASK, 0x1a0, 21);
    sw.flags = CC_SYNC_FLAG_EXITED;
    const sy_fold_entry *s1 = sy_fold_add(&f, &sw, 0x10, &added);
    CHECK(added == 1);
    sw.flags = CC_SYNC_FLAG_NOT_IN_MASK; /* another cause */
    CHECK(sy_fold_add(&f, &sw, 0x10, &added) != s1 && added == 1);
    cc_ev_device_sync_error kernel2 = sync_error(CC_SYNC_WARP_DIVERGENT, 0x1a0, 21);
    kernel2.kernel = "_Z5otherv";
    CHECK(sy_fold_add(&f, &kernel2, 0x10, &added) != a && added == 1);
    cc_ev_device_sync_error null_kernel = sync_error(CC_SYNC_WARP_DIVERGENT, 0x1a0, 21);
    null_kernel.kernel = NULL;
    CHECK(sy_fold_add(&f, &null_kernel, 0x10, &added) != NULL && added == 1);
    CHECK(sy_fold_add(&f, &null_kernel, 0x10, &added) != NULL && added == 0);

    /* a divergent block: the pair of barriers in either order is one fold, another pair not */
    cc_ev_device_sync_error p1 = pair(0x140, 12, 0x2c0, 16);
    const sy_fold_entry *p = sy_fold_add(&f, &p1, 0x10, &added);
    CHECK(p != NULL && added == 1);
    cc_ev_device_sync_error p2 = pair(0x2c0, 16, 0x140, 12);
    CHECK(sy_fold_add(&f, &p2, 0x10, &added) == p && added == 0);
    CHECK_EQ_U64(p->rep.pc, 0x140); /* the representative keeps its own order */
    cc_ev_device_sync_error p3 = pair(0x140, 12, 0x300, 18);
    CHECK(sy_fold_add(&f, &p3, 0x10, &added) != p && added == 1);

    /* without line information the pcs are the places */
    cc_ev_device_sync_error nl = sync_error(CC_SYNC_SHFL_MASK, 0x120, 0);
    const sy_fold_entry *q = sy_fold_add(&f, &nl, 0x10, &added);
    CHECK(q != NULL && added == 1);
    CHECK(sy_fold_add(&f, &nl, 0x10, &added) == q && added == 0);
    cc_ev_device_sync_error nl2 = sync_error(CC_SYNC_SHFL_MASK, 0x130, 0);
    CHECK(sy_fold_add(&f, &nl2, 0x10, &added) != q && added == 1);
    CHECK_EQ_U64(f.table.n, 12);
    CHECK_EQ_U64(f.unfolded, 0);

    /* the table is bounded: past SY_FOLD_MAX events stand alone, counted */
    for (uint64_t i = f.table.n; i < SY_FOLD_MAX; i++) {
        cc_ev_device_sync_error r = sync_error(CC_SYNC_WARP_DIVERGENT, 0x1000 + i, 0);
        CHECK(sy_fold_add(&f, &r, 0x10, &added) != NULL);
    }
    cc_ev_device_sync_error extra = sync_error(CC_SYNC_WARP_DIVERGENT, 0x9999999, 0);
    CHECK(sy_fold_add(&f, &extra, 0x10, &added) == NULL && added == 0);
    CHECK_EQ_U64(f.unfolded, 2);
    cc_ev_device_sync_error again = sync_error(CC_SYNC_WARP_DIVERGENT, 0x1a0, 21);
    CHECK(sy_fold_add(&f, &again, 0x10, &added) == a); /* known folds still fold */
    sy_fold_free(&f);
    CHECK_EQ_U64(f.table.n, 0);
    return cc_test_failures != 0;
}
