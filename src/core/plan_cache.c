/* The per-thread memo of settled access sets (plan_cache.h): 4,096 sets of two ways, the older
 * way replaced; a key stored again replaces its own entry, whatever its generations. */
#include "core/plan_cache.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/hash.h"

#define CC_PLAN_SETS 4096u /* a launch-bound step's 2,500 distinct launches nearly all fit */

/* Keys apart from plans: a lookup reads one set's two keys (two cache lines), a hit one plan. */
typedef struct cc_plan_tag {
    cc_plan_key key;
    unsigned gens[2]; /* gens[0] 0: empty (the decided-launch generation is never 0) */
} cc_plan_tag;

typedef struct cc_plan_table {
    cc_plan_tag tags[CC_PLAN_SETS][2];
    uint8_t recent[CC_PLAN_SETS]; /* the way hit or stored last */
    cc_plan plans[CC_PLAN_SETS][2];
} cc_plan_table;

_Static_assert(sizeof(cc_plan_key) == sizeof(void *) + 8 * sizeof(uint32_t) + sizeof(uint64_t),
               "cc_plan_key has no padding: keys compare with memcmp");

static _Thread_local cc_plan_table *cc_plan_tab;
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

static int same_key(const cc_plan_tag *t, const cc_plan_key *k)
{
    return t->gens[0] != 0 && memcmp(&t->key, k, sizeof *k) == 0;
}

const cc_plan *cc_plan_find(const cc_plan_key *k, const unsigned gens[2])
{
    cc_plan_table *t = cc_plan_tab;
    if (t == NULL) {
        return NULL;
    }
    uint32_t set = set_of(k);
    for (unsigned w = 0; w < 2; w++) {
        const cc_plan_tag *g = &t->tags[set][w];
        if (g->gens[0] == gens[0] && g->gens[1] == gens[1] && same_key(g, k)) {
            t->recent[set] = (uint8_t)w;
            return &t->plans[set][w];
        }
    }
    return NULL;
}

int cc_plan_store(const cc_plan_key *k, const unsigned gens[2], const cc_al_access *acc,
                  size_t n)
{
    if (n > CC_PLAN_ACCESSES || k->function == NULL || gens[0] == 0) {
        return -1;
    }
    if (cc_plan_tab == NULL) {
        pthread_once(&cc_plan_tab_once, cc_plan_tab_key_make);
        if (!cc_plan_tab_key_ok) {
            return -1;
        }
        cc_plan_table *t = calloc(1, sizeof *t);
        if (t == NULL) {
            return -1;
        }
        cc_plan_tab = t;
        pthread_setspecific(cc_plan_tab_key, t); /* freed at the thread's exit */
    }
    cc_plan_table *t = cc_plan_tab;
    uint32_t set = set_of(k);
    /* The key's own way if it has one (whatever its generations), else the older way. */
    unsigned w = same_key(&t->tags[set][0], k) ? 0u
                 : same_key(&t->tags[set][1], k) ? 1u
                                                 : 1u - t->recent[set];
    cc_plan_tag *g = &t->tags[set][w];
    g->key = *k;
    g->gens[0] = gens[0];
    g->gens[1] = gens[1];
    t->plans[set][w].n = (uint32_t)n;
    memcpy(t->plans[set][w].acc, acc, n * sizeof *acc);
    t->recent[set] = (uint8_t)w;
    return 0;
}
