/* The one hash table of cucheck: uint64_t keys to uint64_t values (an id, an index into the
 * caller's array, or a pointer as uintptr_t), open addressing with linear probing, deletion by
 * backward shift (no tombstones). Every key is valid (0 and UINT64_MAX too). Callers make keys
 * with hash.h (cc_hash_str of a name, cc_hash_pair of two handles) or use handles and ids as
 * they are: the table spreads keys itself (multiplicative hashing of both halves). A key derived
 * from a string may stand for several strings: cc_hashmap_add keeps entries with equal keys side
 * by side and cc_hashmap_find_next walks them, so the caller compares the strings. New code
 * uses this table and no other.
 *
 * Two kinds of storage:
 *  - growing (a zeroed cc_hashmap, or CC_HASHMAP_INIT): malloc'd, doubled when half full;
 *  - fixed (cc_hashmap_init_fixed): the caller's arrays, never grown or freed, no malloc ever
 *    (for paths that must not allocate); holds up to its capacity, then insertions fail.
 * Not thread-safe: callers lock. Pointers into the table (values, slots) stay valid until the next
 * insertion or removal; the table must not change during an iteration. */
#ifndef CUCHECK_CORE_HASHMAP_H
#define CUCHECK_CORE_HASHMAP_H

#include <stddef.h>
#include <stdint.h>
#include "core/hash.h"

typedef struct cc_hashmap_slot {
    uint64_t key, value;
} cc_hashmap_slot;

typedef struct cc_hashmap {
    cc_hashmap_slot *slots;
    uint64_t *used;   /* one bit per slot: occupied */
    size_t cap;       /* slots: 0 or a power of two (at least 2) */
    size_t count;     /* entries */
    unsigned shift;   /* 64 - log2(cap) */
    int fixed;        /* the caller's storage */
} cc_hashmap;

#define CC_HASHMAP_INIT {NULL, NULL, 0, 0, 0, 0}
/* Words of the occupancy bitmap of a table of cap slots (fixed storage). */
#define CC_HASHMAP_USED_WORDS(cap) (((cap) + 63) / 64)

/* The slot where key's probe sequence starts in m (m->cap > 0). */
static inline size_t cc_hashmap_home(const cc_hashmap *m, uint64_t key)
{
    return (size_t)(((key ^ (key >> 32)) * 0x9E3779B97F4A7C15ull) >> m->shift);
}

/* Fixed storage: slots[cap] and used[CC_HASHMAP_USED_WORDS(cap)] of the caller (cap a power of
 * two, at least 2), emptied here. 0, or -1 when cap is not such a power of two. */
int cc_hashmap_init_fixed(cc_hashmap *m, cc_hashmap_slot *slots, uint64_t *used, size_t cap);
/* Releases growing storage (the map is then empty and usable again); empties a fixed one. */
void cc_hashmap_free(cc_hashmap *m);
/* Removes every entry, keeps the storage. */
void cc_hashmap_clear(cc_hashmap *m);
/* Room for n entries without growing. 0, or -1 (out of memory, or fixed and too small). */
int cc_hashmap_reserve(cc_hashmap *m, size_t n);

/* The value of an entry with key, or NULL. */
uint64_t *cc_hashmap_get(const cc_hashmap *m, uint64_t key);
/* Sets key's value (replacing it if the key is there). 0, or -1 when there is no room. */
int cc_hashmap_put(cc_hashmap *m, uint64_t key, uint64_t value);
/* The value of key, inserted with `initial` if absent (*added then 1, else 0; added may be
 * NULL). NULL when there is no room. One probe sequence for both. */
uint64_t *cc_hashmap_get_or_add(cc_hashmap *m, uint64_t key, uint64_t initial, int *added);
/* Inserts one more entry, whether or not key is there (several values for one key). 0 or -1. */
int cc_hashmap_add(cc_hashmap *m, uint64_t key, uint64_t value);
/* Removes one entry with key: 1 (its value in *value unless NULL), or 0 when there is none. */
int cc_hashmap_remove(cc_hashmap *m, uint64_t key, uint64_t *value);
/* Removes the entry (key, value): 1, or 0 when there is none. */
int cc_hashmap_remove_entry(cc_hashmap *m, uint64_t key, uint64_t value);

/* The values of key one by one: start with *cursor = 0; NULL when there are no more. */
uint64_t *cc_hashmap_find_next(const cc_hashmap *m, uint64_t key, size_t *cursor);
/* Every entry once, in no particular order: start with *cursor = 0; NULL at the end. The key of a
 * returned slot must not be changed (its value may). */
cc_hashmap_slot *cc_hashmap_next(const cc_hashmap *m, size_t *cursor);

#endif
