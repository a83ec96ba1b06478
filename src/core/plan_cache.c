/* The per-thread memo of settled access sets (plan_cache.h): 4,096 sets of two ways, the newer
 * entry first; a key stored again replaces its entry, whatever its generations. */
#include "core/plan_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"

#define CC_PLAN_SETS 4096u /* a launch-bound step's 2,500 distinct launches nearly all fit */

typedef struct cc_plan_entry {
    cc_plan_key key;
    unsigned gens[2];
    int used;
    cc_plan plan;
} cc_plan_entry;

_Static_assert(sizeof(cc_plan_key) == sizeof(void *) + 8 * sizeof(uint32_t) + sizeof(uint64_t),
               "cc_plan_key has no padding: keys compare with memcmp");

static _Thread_local cc_plan_entry (*cc_plan_tab)[2];
static pthread_key_t cc_plan_tab_key;
static pthread_once_t cc_plan_tab_once = PTHREAD_ONCE_INIT;
static int cc_plan_tab_key_ok;

/* At the thread's exit; a launch from a later destructor of the thread finds no table. */
static void cc_plan_tab_free(void *tab)
{
    cc_plan_tab = NULL;
    free(tab);
}

static void cc_plan_tab_key_make(void)
{
    cc_plan_tab_key_ok = pthread_key_create(&cc_plan_tab_key, cc_plan_tab_free) == 0;
}

static uint32_t set_of(const cc_plan_key *k)
{
    uint64_t h = cc_hash_combine(
        cc_hash_pair((uint64_t)(uintptr_t)k->function, k->args_hash),
        cc_hash_pair(k->grid[0] ^ (uint64_t)k->grid[1] << 32 ^ k->grid[2],
                     k->block[0] ^ (uint64_t)k->block[1] << 32 ^ k->block[2]));
    return (uint32_t)(h % CC_PLAN_SETS);
}

static int entry_is(const cc_plan_entry *e, const cc_plan_key *k, const unsigned gens[2])
{
    return e->used && e->gens[0] == gens[0] && e->gens[1] == gens[1] &&
           memcmp(&e->key, k, sizeof *k) == 0;
}

const cc_plan *cc_plan_find(const cc_plan_key *k, const unsigned gens[2])
{
    if (cc_plan_tab == NULL) {
        return NULL;
    }
    cc_plan_entry *set = cc_plan_tab[set_of(k)];
    if (entry_is(&set[0], k, gens)) {
        return &set[0].plan;
    }
    if (entry_is(&set[1], k, gens)) {
        cc_plan_entry hit = set[1]; /* the newer first */
        set[1] = set[0];
        set[0] = hit;
        return &set[0].plan;
    }
    return NULL;
}

int cc_plan_store(const cc_plan_key *k, const unsigned gens[2], const cc_al_access *acc,
                  size_t n)
{
    if (n > CC_PLAN_ACCESSES || k->function == NULL) {
        return -1;
    }
    if (cc_plan_tab == NULL) {
        pthread_once(&cc_plan_tab_once, cc_plan_tab_key_make);
        if (!cc_plan_tab_key_ok) {
            return -1;
        }
        cc_plan_tab = calloc(CC_PLAN_SETS, sizeof *cc_plan_tab);
        if (cc_plan_tab == NULL) {
            return -1;
        }
        pthread_setspecific(cc_plan_tab_key, cc_plan_tab); /* freed at the thread's exit */
    }
    cc_plan_entry *set = cc_plan_tab[set_of(k)];
    cc_plan_entry *e = &set[0];
    if (set[1].used && memcmp(&set[1].key, k, sizeof *k) == 0) {
        set[1] = set[0]; /* the key's older entry goes */
    } else if (!set[0].used || memcmp(&set[0].key, k, sizeof *k) != 0) {
        set[1] = set[0]; /* another key: the older way goes */
    }
    e->key = *k;
    e->gens[0] = gens[0];
    e->gens[1] = gens[1];
    e->used = 1;
    e->plan.n = (uint32_t)n;
    memcpy(e->plan.acc, acc, n * sizeof *acc);
    return 0;
}
