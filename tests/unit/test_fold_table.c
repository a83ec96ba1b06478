/* The fold table (src/core/fold_table.c): entries found under colliding keys by the caller's
 * comparison, kept in order, refused past the cap, freed through the caller's function. */
#include <stdlib.h>
#include "check.h"
#include "core/fold_table.h"

static int freed;

static void free_int(void *p)
{
    freed++;
    free(p);
}

static int same_int(const void *entry, const void *probe)
{
    return *(const int *)entry == *(const int *)probe;
}

static int *make(int v)
{
    int *p = malloc(sizeof *p);
    *p = v;
    return p;
}

int main(void)
{
    cc_fold_table t;
    cc_fold_table_init(&t);
    int one = 1, two = 2, three = 3;
    CHECK(cc_fold_table_find(&t, 7, same_int, &one) == NULL);
    /* Two entries under one key: the comparison tells them apart. */
    CHECK(cc_fold_table_add(&t, 7, make(1), 3) == 0);
    CHECK(cc_fold_table_add(&t, 7, make(2), 3) == 0);
    const int *a = cc_fold_table_find(&t, 7, same_int, &one);
    const int *b = cc_fold_table_find(&t, 7, same_int, &two);
    CHECK(a != NULL && *a == 1 && b != NULL && *b == 2);
    CHECK(cc_fold_table_find(&t, 8, same_int, &one) == NULL);
    CHECK(cc_fold_table_find(&t, 7, same_int, &three) == NULL);
    /* Order kept; the cap refuses (the entry stays the caller's). */
    CHECK(cc_fold_table_add(&t, 9, make(3), 3) == 0);
    CHECK(t.n == 3 && *(int *)t.entries[0] == 1 && *(int *)t.entries[2] == 3);
    int *refused = make(4);
    CHECK(cc_fold_table_add(&t, 10, refused, 3) == -1);
    CHECK(t.n == 3 && cc_fold_table_find(&t, 10, same_int, refused) == NULL);
    free(refused);
    cc_fold_table_free(&t, free_int);
    CHECK(freed == 3 && t.n == 0 && cc_fold_table_find(&t, 7, same_int, &one) == NULL);
    return cc_test_failures != 0;
}
