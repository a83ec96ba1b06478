/* The module-variable map (core/modvar_map.h): variables kept sorted whatever order they come
 * in, names copied, an overlapping newcomer replacing what it covers, variables of size or
 * address 0 ignored, dropping by module and by context, lookups at both ends of a variable, and
 * where an address lies: inside, overrun, after or before the nearest (the one below on a tie,
 * as the allocation map picks), nothing known. */
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/modvar_map.h"

static cc_ev_module_var var(uint64_t module, uint64_t context, uint64_t address, uint64_t size,
                            const char *name)
{
    cc_ev_module_var v;
    memset(&v, 0, sizeof v);
    v.module = module;
    v.context = context;
    v.address = address;
    v.size = size;
    v.name = name;
    return v;
}

static void check_add_and_find(void)
{
    cc_modvar_map *m = cc_modvar_map_new();
    CHECK(m != NULL);
    char name[16];
    strcpy(name, "table");
    cc_ev_module_var t = var(1, 7, 0x1068, 1024, name);
    CHECK(cc_modvar_map_add(m, &t) == 0);
    strcpy(name, "clobbered"); /* the map kept its own copy */
    cc_ev_module_var f = var(1, 7, 0x1048, 4, "flag");
    cc_ev_module_var c = var(2, 7, 0x9000, 64, "coeffs");
    c.flags = CC_MODVAR_FLAG_CONSTANT;
    CHECK(cc_modvar_map_add(m, &c) == 0);
    CHECK(cc_modvar_map_add(m, &f) == 0);
    cc_ev_module_var none = var(1, 7, 0x2000, 0, "empty");
    CHECK(cc_modvar_map_add(m, &none) == 0);
    none = var(1, 7, 0, 8, "nowhere");
    CHECK(cc_modvar_map_add(m, &none) == 0);
    CHECK_EQ_U64(cc_modvar_map_count(m), 3);
    CHECK_STR(cc_modvar_map_at(m, 0)->name, "flag");
    CHECK_STR(cc_modvar_map_at(m, 1)->name, "table");
    CHECK_STR(cc_modvar_map_at(m, 2)->name, "coeffs");
    CHECK_EQ_U64(cc_modvar_map_at(m, 2)->flags, CC_MODVAR_FLAG_CONSTANT);
    CHECK(cc_modvar_map_at(m, 3) == NULL);

    CHECK(cc_modvar_map_find(m, 0x1047) == NULL);
    CHECK_STR(cc_modvar_map_find(m, 0x1048)->name, "flag");
    CHECK_STR(cc_modvar_map_find(m, 0x104b)->name, "flag");
    CHECK(cc_modvar_map_find(m, 0x104c) == NULL);
    CHECK_STR(cc_modvar_map_find(m, 0x1467)->name, "table");
    CHECK(cc_modvar_map_find(m, 0x1468) == NULL);

    /* A variable over part of table and all of flag (their module went unannounced). */
    cc_ev_module_var n = var(3, 8, 0x1040, 0x100, "newer");
    CHECK(cc_modvar_map_add(m, &n) == 0);
    CHECK_EQ_U64(cc_modvar_map_count(m), 2);
    CHECK_STR(cc_modvar_map_find(m, 0x1048)->name, "newer");
    CHECK(cc_modvar_map_find(m, 0x1200) == NULL);

    CHECK_EQ_U64(cc_modvar_map_drop_module(m, 2), 1);
    CHECK_EQ_U64(cc_modvar_map_drop_module(m, 2), 0);
    CHECK_EQ_U64(cc_modvar_map_count(m), 1);
    CHECK(cc_modvar_map_add(m, &t) == 0 && cc_modvar_map_add(m, &c) == 0);
    CHECK_EQ_U64(cc_modvar_map_count(m), 2); /* table replaced newer */
    CHECK_EQ_U64(cc_modvar_map_drop_context(m, 7), 2);
    CHECK_EQ_U64(cc_modvar_map_count(m), 0);
    cc_modvar_map_free(m);
    cc_modvar_map_free(NULL);
}

static void check_where(void)
{
    cc_modvar_map *m = cc_modvar_map_new();
    cc_modvar_where w = cc_modvar_map_where(m, 0x1000, 4);
    CHECK(w.where == CC_WHERE_NOWHERE && w.var == NULL);
    cc_ev_module_var a = var(1, 1, 0x1000, 16, "a");
    cc_ev_module_var b = var(1, 1, 0x1021, 16, "b");
    cc_modvar_map_add(m, &a);
    cc_modvar_map_add(m, &b);

    w = cc_modvar_map_where(m, 0x1004, 4);
    CHECK(w.where == CC_WHERE_INSIDE);
    CHECK_STR(w.var->name, "a");
    CHECK_EQ_U64(w.distance, 4);
    CHECK_EQ_U64(w.gap, 0);
    w = cc_modvar_map_where(m, 0x100c, 8);
    CHECK(w.where == CC_WHERE_OVERRUN);
    CHECK_EQ_U64(w.distance, 12);
    w = cc_modvar_map_where(m, 0x1010, 4); /* just past a: after a, 17 bytes before b */
    CHECK(w.where == CC_WHERE_AFTER);
    CHECK_STR(w.var->name, "a");
    CHECK_EQ_U64(w.distance, 0);
    CHECK_EQ_U64(w.gap, 1);
    w = cc_modvar_map_where(m, 0x101f, 1); /* 16 bytes from a's last byte, 2 before b */
    CHECK(w.where == CC_WHERE_BEFORE);
    CHECK_STR(w.var->name, "b");
    CHECK_EQ_U64(w.distance, 2);
    CHECK_EQ_U64(w.gap, 2);
    w = cc_modvar_map_where(m, 0x1018, 4); /* 9 from a's last byte, 9 before b: a */
    CHECK(w.where == CC_WHERE_AFTER);
    CHECK_STR(w.var->name, "a");
    CHECK_EQ_U64(w.distance, 8);
    w = cc_modvar_map_where(m, 0x10, 4);
    CHECK(w.where == CC_WHERE_BEFORE);
    CHECK_EQ_U64(w.distance, 0x1000 - 0x10);
    w = cc_modvar_map_where(m, UINT64_MAX - 3, 8); /* far above, the range wraps */
    CHECK(w.where == CC_WHERE_AFTER);
    CHECK_STR(w.var->name, "b");
    /* A variable at the top of the address space: its end saturates. */
    cc_ev_module_var top = var(1, 1, UINT64_MAX - 7, 16, "top");
    CHECK(cc_modvar_map_add(m, &top) == 0);
    w = cc_modvar_map_where(m, UINT64_MAX - 4, 4);
    CHECK(w.where == CC_WHERE_INSIDE);
    CHECK_STR(w.var->name, "top");
    CHECK_EQ_U64(w.distance, 3);
    cc_modvar_map_free(m);
}

int main(void)
{
    check_add_and_find();
    check_where();
    TEST_MAIN_END();
}
