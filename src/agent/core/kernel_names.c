/* Kernel names that live as long as the process: launch events keep a kernel's name past the
 * callback that reported it (the event thread analyses them later, and tools keep them for their
 * reports), while the Sanitizer's string belongs to the loaded module. Each (function, string)
 * pair the Sanitizer reports is copied once into a table that is never freed (a module loaded
 * again gets new copies); a per-thread direct-mapped cache answers repeated launches without the
 * table's lock. Past CC_KN_MAX distinct pairs the Sanitizer's own string is used. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"

#define CC_KN_MAX 65536u   /* distinct (function, string) pairs kept: a power of two */
#define CC_KN_LOCAL 256u   /* per-thread cache entries: a power of two */

typedef struct cc_kn_entry {
    const void *function;
    const char *source; /* the Sanitizer's string */
    const char *copy;
} cc_kn_entry;

static pthread_mutex_t cc_kn_lock = PTHREAD_MUTEX_INITIALIZER;
static cc_kn_entry *cc_kn_table; /* open addressing, CC_KN_MAX * 2 slots */
static size_t cc_kn_count;
static _Thread_local cc_kn_entry cc_kn_local[CC_KN_LOCAL];

static size_t cc_kn_hash(const void *function, const char *source)
{
    uint64_t h = ((uint64_t)(uintptr_t)function * 0x9e3779b97f4a7c15ull) ^
                 ((uint64_t)(uintptr_t)source * 0xc2b2ae3d27d4eb4full);
    return (size_t)(h >> 32);
}

/* The kept copy of (function, source), made on first sight; NULL when full or out of memory.
 * Lock held. */
static const char *cc_kn_find_or_add(const void *function, const char *source, size_t h)
{
    const size_t cap = (size_t)CC_KN_MAX * 2;
    if (cc_kn_table == NULL) {
        cc_kn_table = calloc(cap, sizeof *cc_kn_table);
        if (cc_kn_table == NULL) {
            return NULL;
        }
    }
    for (size_t i = 0; i < cap; i++) {
        cc_kn_entry *e = &cc_kn_table[(h + i) & (cap - 1)];
        if (e->copy == NULL) {
            if (cc_kn_count >= CC_KN_MAX) {
                return NULL;
            }
            char *copy = strdup(source);
            if (copy == NULL) {
                return NULL;
            }
            e->function = function;
            e->source = source;
            e->copy = copy;
            cc_kn_count++;
            return copy;
        }
        if (e->function == function && e->source == source) {
            return e->copy;
        }
    }
    return NULL;
}

const char *cc_agent_kernel_name(const void *function, const char *source)
{
    if (source == NULL) {
        return "";
    }
    size_t h = cc_kn_hash(function, source);
    cc_kn_entry *local = &cc_kn_local[h & (CC_KN_LOCAL - 1)];
    if (local->copy != NULL && local->function == function && local->source == source) {
        return local->copy;
    }
    pthread_mutex_lock(&cc_kn_lock);
    const char *copy = cc_kn_find_or_add(function, source, h);
    pthread_mutex_unlock(&cc_kn_lock);
    if (copy == NULL) {
        return source;
    }
    local->function = function;
    local->source = source;
    local->copy = copy;
    return copy;
}

void cc_agent_kernel_names_after_fork(void)
{
    /* Another thread may have held the lock at the fork; the kept names stay valid. */
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    cc_kn_lock = fresh;
}
