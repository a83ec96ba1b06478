/* racecheck's fold table (src/tools/racecheck/racecheck_fold.c): hazards of one pair of source
 * locations fold into one entry whatever their pcs, threads, blocks and addresses, with the
 * counts added (an event's count 0 counts as 1) and the first event's places kept (its strings
 * copied); a different kind, space, kernel, callsite, line of either side, or same-value flag
 * opens a new entry; without line information the pcs are the places. */
#include <string.h>
#include "check.h"
#include "tools/racecheck/racecheck_fold.h"

static cc_ev_device_race race(uint64_t pc1, uint32_t line1, uint64_t pc2, uint32_t line2)
{
    cc_ev_device_race e;
    memset(&e, 0, sizeof e);
    e.launch_id = 1;
    e.kernel = "_Z9block_sumPKiPii";
    e.space = 2;
    e.kind = CC_RACE_RAW;
    e.address = 0x94;
    e.first = (cc_ev_race_side){ pc1, line1 ? "reduce.cu" : "", line1, { 0, 0, 0 }, { 37, 0, 0 },
                                 4, CC_ACCESS_FLAG_WRITE };
    e.second = (cc_ev_race_side){ pc2, line2 ? "reduce.cu" : "", line2, { 0, 0, 0 }, { 5, 0, 0 },
                                  4, CC_ACCESS_FLAG_READ };
    e.count = 2;
    return e;
}

int main(void)
{
    rc_fold f;
    rc_fold_init(&f);
    int added = 0;
    char kernel[32] = "_Z9block_sumPKiPii";
    cc_ev_device_race e = race(0x1d0, 21, 0x1c0, 21);
    e.kernel = kernel;
    const rc_fold_entry *a = rc_fold_add(&f, &e, 0x10, &added);
    CHECK(a != NULL && added == 1);
    memset(kernel, 'x', sizeof kernel - 1); /* the event's strings die with the event */

    /* the same lines at other pcs, threads, blocks and addresses: folded, count 0 counts 1 */
    cc_ev_device_race same = race(0x2d0, 21, 0x2c0, 21);
    same.address = 0x54;
    same.second.block[0] = 3;
    same.count = 0;
    const rc_fold_entry *b = rc_fold_add(&f, &same, 0x10, &added);
    CHECK(b == a && added == 0);
    CHECK_EQ_U64(b->count, 3);
    CHECK_STR(b->rep.kernel, "_Z9block_sumPKiPii");
    CHECK_EQ_U64(b->rep.first.pc, 0x1d0);
    CHECK_EQ_U64(b->rep.second.pc, 0x1c0);
    CHECK_STR(b->rep.second.file, "reduce.cu");

    /* what opens a new fold */
    cc_ev_device_race other_line = race(0x150, 19, 0x1c0, 21);
    CHECK(rc_fold_add(&f, &other_line, 0x10, &added) != a && added == 1);
    cc_ev_device_race elsewhere = race(0x1d0, 21, 0x1c0, 21);
    CHECK(rc_fold_add(&f, &elsewhere, 0x20, &added) != a && added == 1); /* another callsite */
    cc_ev_device_race war = race(0x1d0, 21, 0x1c0, 21);
    war.kind = CC_RACE_WAR;
    CHECK(rc_fold_add(&f, &war, 0x10, &added) != a && added == 1);
    cc_ev_device_race global = race(0x1d0, 21, 0x1c0, 21);
    global.space = 1;
    CHECK(rc_fold_add(&f, &global, 0x10, &added) != a && added == 1);
    cc_ev_device_race waw = race(0x1d0, 21, 0x1c0, 21);
    waw.kind = CC_RACE_WAW;
    const rc_fold_entry *w = rc_fold_add(&f, &waw, 0x10, &added);
    CHECK(added == 1);
    waw.flags = CC_RACE_FLAG_SAME_VALUE;
    CHECK(rc_fold_add(&f, &waw, 0x10, &added) != w && added == 1);
    cc_ev_device_race kernel2 = race(0x1d0, 21, 0x1c0, 21);
    kernel2.kernel = "_Z5otherv";
    CHECK(rc_fold_add(&f, &kernel2, 0x10, &added) != a && added == 1);
    cc_ev_device_race null_kernel = race(0x1d0, 21, 0x1c0, 21);
    null_kernel.kernel = NULL;
    CHECK(rc_fold_add(&f, &null_kernel, 0x10, &added) != NULL && added == 1);
    CHECK(rc_fold_add(&f, &null_kernel, 0x10, &added) != NULL && added == 0);

    /* without line information the pcs are the places */
    cc_ev_device_race nl = race(0x120, 0, 0x130, 0);
    const rc_fold_entry *p = rc_fold_add(&f, &nl, 0x10, &added);
    CHECK(p != NULL && added == 1);
    CHECK(rc_fold_add(&f, &nl, 0x10, &added) == p && added == 0);
    cc_ev_device_race nl2 = race(0x120, 0, 0x138, 0);
    CHECK(rc_fold_add(&f, &nl2, 0x10, &added) != p && added == 1);
    CHECK_EQ_U64(f.table.n, 11);
    CHECK_EQ_U64(f.unfolded, 0);

    /* the table is bounded: past RC_FOLD_MAX events stand alone, counted */
    for (uint64_t i = f.table.n; i < RC_FOLD_MAX; i++) {
        cc_ev_device_race r = race(0x1000 + i, 0, 0x2000, 0);
        CHECK(rc_fold_add(&f, &r, 0x10, &added) != NULL);
    }
    cc_ev_device_race extra = race(0x9999999, 0, 0x2000, 0);
    CHECK(rc_fold_add(&f, &extra, 0x10, &added) == NULL && added == 0);
    CHECK_EQ_U64(f.unfolded, 2);
    cc_ev_device_race again = race(0x1d0, 21, 0x1c0, 21);
    CHECK(rc_fold_add(&f, &again, 0x10, &added) == a); /* known folds still fold */
    rc_fold_free(&f);
    CHECK_EQ_U64(f.table.n, 0);
    return cc_test_failures != 0;
}
