/* The one hash table (hashmap.h): linear probing from the key's home slot (cc_hashmap_home);
 * a bitmap says which slots are occupied (1/128 of the slots' size: it stays in cache, so a probe
 * mostly costs the slot itself). A growing table doubles when an insertion would make it more
 * than half full; a fixed one fills up to its capacity, and every probe sequence is bounded by it. */
#include "core/hashmap.h"

#include <stdlib.h>
#include <string.h>

#define CC_HASHMAP_MIN 16

static int is_used(const cc_hashmap *m, size_t i) { return (int)((m->used[i >> 6] >> (i & 63)) & 1u); }
static void set_used(cc_hashmap *m, size_t i) { m->used[i >> 6] |= 1ull << (i & 63); }
static void clear_used(cc_hashmap *m, size_t i) { m->used[i >> 6] &= ~(1ull << (i & 63)); }

static unsigned shift_for(size_t cap)
{
    unsigned log2 = 0;
    while (((size_t)1 << log2) < cap) {
        log2++;
    }
    return 64u - log2;
}

int cc_hashmap_init_fixed(cc_hashmap *m, cc_hashmap_slot *slots, uint64_t *used, size_t cap)
{
    if (cap < 2 || (cap & (cap - 1)) != 0 || slots == NULL || used == NULL) {
        return -1;
    }
    m->slots = slots;
    m->used = used;
    m->cap = cap;
    m->count = 0;
    m->shift = shift_for(cap);
    m->fixed = 1;
    memset(used, 0, CC_HASHMAP_USED_WORDS(cap) * sizeof *used);
    return 0;
}

void cc_hashmap_clear(cc_hashmap *m)
{
    if (m->cap != 0) {
        memset(m->used, 0, CC_HASHMAP_USED_WORDS(m->cap) * sizeof *m->used);
    }
    m->count = 0;
}

void cc_hashmap_free(cc_hashmap *m)
{
    if (m->fixed) {
        cc_hashmap_clear(m);
        return;
    }
    free(m->slots); /* the bitmap lives in the same block */
    memset(m, 0, sizeof *m);
}

/* The first free slot of key's probe sequence (the table has one). */
static size_t free_slot(const cc_hashmap *m, uint64_t key)
{
    size_t mask = m->cap - 1, i = cc_hashmap_home(m, key);
    while (is_used(m, i)) {
        i = (i + 1) & mask;
    }
    return i;
}

/* Moves every entry into a new block of cap slots. 0 or -1 (nothing changed). */
static int rehash(cc_hashmap *m, size_t cap)
{
    size_t words = CC_HASHMAP_USED_WORDS(cap);
    if (cap > ((size_t)PTRDIFF_MAX - words * sizeof(uint64_t)) / sizeof(cc_hashmap_slot)) {
        return -1;
    }
    cc_hashmap_slot *slots = malloc(cap * sizeof *slots + words * sizeof(uint64_t));
    if (slots == NULL) {
        return -1;
    }
    cc_hashmap old = *m;
    m->slots = slots;
    m->used = (uint64_t *)(void *)(slots + cap);
    m->cap = cap;
    m->shift = shift_for(cap);
    memset(m->used, 0, words * sizeof(uint64_t));
    for (size_t i = 0; i < old.cap; i++) {
        if (is_used(&old, i)) {
            size_t j = free_slot(m, old.slots[i].key);
            m->slots[j] = old.slots[i];
            set_used(m, j);
        }
    }
    free(old.slots);
    return 0;
}

int cc_hashmap_reserve(cc_hashmap *m, size_t n)
{
    if (m->fixed) {
        return n <= m->cap ? 0 : -1;
    }
    if (n == 0) {
        return 0;
    }
    if (n > (size_t)PTRDIFF_MAX / 2) {
        return -1;
    }
    size_t cap = m->cap != 0 ? m->cap : CC_HASHMAP_MIN;
    while (cap < 2 * n) {
        cap *= 2;
    }
    return cap > m->cap ? rehash(m, cap) : 0;
}

/* Room for one more entry: 0, or -1 (fixed and full, or out of memory). */
static int room_for_one(cc_hashmap *m)
{
    if (m->fixed) {
        return m->count < m->cap ? 0 : -1;
    }
    if ((m->count + 1) * 2 <= m->cap) {
        return 0;
    }
    if (m->cap > (size_t)PTRDIFF_MAX / 2) {
        return -1;
    }
    return rehash(m, m->cap != 0 ? m->cap * 2 : CC_HASHMAP_MIN);
}

/* The slot of the next entry with key from probe *cursor on (advanced past it), or cap. */
static size_t next_of(const cc_hashmap *m, uint64_t key, size_t *cursor)
{
    if (m->count == 0) {
        return m->cap;
    }
    size_t mask = m->cap - 1, home = cc_hashmap_home(m, key);
    for (size_t d = *cursor; d < m->cap; d++) {
        size_t i = (home + d) & mask;
        if (!is_used(m, i)) {
            break;
        }
        if (m->slots[i].key == key) {
            *cursor = d + 1;
            return i;
        }
    }
    *cursor = m->cap;
    return m->cap;
}

/* The slot of an entry with key, or cap when there is none. A probe run is never longer than
 * the number of entries, which also bounds it in a full fixed table. */
static inline size_t slot_of(const cc_hashmap *m, uint64_t key)
{
    size_t mask = m->cap - 1, i = m->count != 0 ? cc_hashmap_home(m, key) : 0;
    for (size_t d = 0; d < m->count && is_used(m, i); d++, i = (i + 1) & mask) {
        if (m->slots[i].key == key) {
            return i;
        }
    }
    return m->cap;
}

uint64_t *cc_hashmap_get(const cc_hashmap *m, uint64_t key)
{
    size_t i = slot_of(m, key);
    return i < m->cap ? &m->slots[i].value : NULL;
}

static uint64_t *insert_new(cc_hashmap *m, uint64_t key, uint64_t value)
{
    if (room_for_one(m) != 0) {
        return NULL;
    }
    size_t i = free_slot(m, key);
    m->slots[i].key = key;
    m->slots[i].value = value;
    set_used(m, i);
    m->count++;
    return &m->slots[i].value;
}

uint64_t *cc_hashmap_get_or_add(cc_hashmap *m, uint64_t key, uint64_t initial, int *added)
{
    size_t i = slot_of(m, key);
    if (added != NULL) {
        *added = i == m->cap;
    }
    return i < m->cap ? &m->slots[i].value : insert_new(m, key, initial);
}

int cc_hashmap_put(cc_hashmap *m, uint64_t key, uint64_t value)
{
    uint64_t *v = cc_hashmap_get_or_add(m, key, value, NULL);
    if (v == NULL) {
        return -1;
    }
    *v = value;
    return 0;
}

int cc_hashmap_add(cc_hashmap *m, uint64_t key, uint64_t value)
{
    return insert_new(m, key, value) != NULL ? 0 : -1;
}

/* Empties slot i and shifts back the entries after it that may move closer to their home. */
static void remove_at(cc_hashmap *m, size_t i)
{
    size_t mask = m->cap - 1, j = i;
    clear_used(m, i);
    for (;;) {
        j = (j + 1) & mask;
        if (!is_used(m, j)) {
            break;
        }
        size_t home = cc_hashmap_home(m, m->slots[j].key);
        if (((j - home) & mask) >= ((j - i) & mask)) { /* the hole lies on its probe path */
            m->slots[i] = m->slots[j];
            set_used(m, i);
            clear_used(m, j);
            i = j;
        }
    }
    m->count--;
}

int cc_hashmap_remove(cc_hashmap *m, uint64_t key, uint64_t *value)
{
    size_t i = slot_of(m, key);
    if (i == m->cap) {
        return 0;
    }
    if (value != NULL) {
        *value = m->slots[i].value;
    }
    remove_at(m, i);
    return 1;
}

int cc_hashmap_remove_entry(cc_hashmap *m, uint64_t key, uint64_t value)
{
    size_t cursor = 0;
    for (size_t i; (i = next_of(m, key, &cursor)) < m->cap;) {
        if (m->slots[i].value == value) {
            remove_at(m, i);
            return 1;
        }
    }
    return 0;
}

uint64_t *cc_hashmap_find_next(const cc_hashmap *m, uint64_t key, size_t *cursor)
{
    size_t i = next_of(m, key, cursor);
    return i < m->cap ? &m->slots[i].value : NULL;
}

cc_hashmap_slot *cc_hashmap_next(const cc_hashmap *m, size_t *cursor)
{
    for (size_t i = *cursor; i < m->cap; i++) {
        if (is_used(m, i)) {
            *cursor = i + 1;
            return &m->slots[i];
        }
    }
    *cursor = m->cap;
    return NULL;
}
