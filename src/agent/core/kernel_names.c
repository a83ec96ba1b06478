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
#include "core/grow.h"
#include "core/hashmap.h"

#define CC_KN_MAX 65536u   /* distinct (function, string) pairs kept */
#define CC_KN_LOCAL 256u   /* per-thread cache entries: a power of two */

typedef struct cc_kn_entry {
    const void *function;
    const char *source; /* the Sanitizer's string */
    const char *copy;
} cc_kn_entry;

static pthread_mutex_t cc_kn_lock = PTHREAD_MUTEX_INITIALIZER;
static cc_kn_entry *cc_kn_entries; /* in order of first sight */
static size_t cc_kn_count, cc_kn_cap;
static cc_hashmap cc_kn_index = CC_HASHMAP_INIT; /* cc_kn_key -> index into cc_kn_entries */
static _Thread_local cc_kn_entry cc_kn_local[CC_KN_LOCAL];

static uint64_t cc_kn_key(const void *function, const char *source)
{
    return cc_hash_pair((uintptr_t)function, (uintptr_t)source);
}

/* The kept copy of (function, source), made on first sight; NULL when full or out of memory.
 * Lock held. */
static const char *cc_kn_find_or_add(const void *function, const char *source, uint64_t key)
{
    size_t cursor = 0;
    for (uint64_t *i; (i = cc_hashmap_find_next(&cc_kn_index, key, &cursor)) != NULL;) {
        const cc_kn_entry *e = &cc_kn_entries[*i];
        if (e->function == function && e->source == source) {
            return e->copy;
        }
    }
    if (cc_kn_count >= CC_KN_MAX || CC_ARRAY_RESERVE(cc_kn_entries, cc_kn_cap, cc_kn_count + 1)) {
        return NULL;
    }
    char *copy = strdup(source);
    if (copy == NULL) {
        return NULL;
    }
    if (cc_hashmap_add(&cc_kn_index, key, cc_kn_count) != 0) {
        free(copy);
        return NULL;
    }
    cc_kn_entries[cc_kn_count++] = (cc_kn_entry){function, source, copy};
    return copy;
}

const char *cc_agent_kernel_name(const void *function, const char *source)
{
    if (source == NULL) {
        return "";
    }
    uint64_t key = cc_kn_key(function, source);
    cc_kn_entry *local = &cc_kn_local[(key >> 32) & (CC_KN_LOCAL - 1)];
    if (local->copy != NULL && local->function == function && local->source == source) {
        return local->copy;
    }
    pthread_mutex_lock(&cc_kn_lock);
    const char *copy = cc_kn_find_or_add(function, source, key);
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
