/* The one hash table (hashmap.h): linear probing from the mixed key's home slot; a tag byte per
 * slot says empty or gives 7 more bits of the mixed key, so most probes compare one byte. A
 * growing table doubles when an insertion would make it more than half full; a fixed one fills
 * up to its capacity, and every probe sequence is bounded by it. */
#include "core/hashmap.h"

#include <stdlib.h>
#include <string.h>

#define CC_HASHMAP_MIN 16

static size_t home_of(uint64_t h, size_t cap) { return (size_t)h & (cap - 1); }
static uint8_t tag_of(uint64_t h) { return (uint8_t)(0x80u | (unsigned)(h >> 57)); }

int cc_hashmap_init_fixed(cc_hashmap *m, cc_hashmap_slot *slots, uint8_t *tags, size_t cap)
{
    if (cap == 0 || (cap & (cap - 1)) != 0 || slots == NULL || tags == NULL) {
        return -1;
    }
    m->slots = slots;
    m->tags = tags;
    m->cap = cap;
    m->count = 0;
    m->fixed = 1;
    memset(tags, 0, cap);
    return 0;
}

void cc_hashmap_clear(cc_hashmap *m)
{
    if (m->cap != 0) {
        memset(m->tags, 0, m->cap);
    }
    m->count = 0;
}

void cc_hashmap_free(cc_hashmap *m)
{
    if (m->fixed) {
        cc_hashmap_clear(m);
        return;
    }
    free(m->slots); /* the tags live in the same block */
    memset(m, 0, sizeof *m);
}

/* The first empty slot of h's probe sequence (the table has one). */
static size_t empty_slot(const cc_hashmap *m, uint64_t h)
{
    size_t mask = m->cap - 1, i = home_of(h, m->cap);
    while (m->tags[i] != 0) {
        i = (i + 1) & mask;
    }
    return i;
}

/* Moves every entry into a new block of cap slots. 0 or -1 (nothing changed). */
static int rehash(cc_hashmap *m, size_t cap)
{
    if (cap > ((size_t)PTRDIFF_MAX - cap) / sizeof(cc_hashmap_slot)) {
        return -1;
    }
    cc_hashmap_slot *slots = malloc(cap * sizeof *slots + cap);
    if (slots == NULL) {
        return -1;
    }
    cc_hashmap old = *m;
    m->slots = slots;
    m->tags = (uint8_t *)(slots + cap);
    m->cap = cap;
    memset(m->tags, 0, cap);
    for (size_t i = 0; i < old.cap; i++) {
        if (old.tags[i] != 0) {
            size_t j = empty_slot(m, cc_hash_u64(old.slots[i].key));
            m->slots[j] = old.slots[i];
            m->tags[j] = old.tags[i];
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

/* The slot of an entry with key, or cap when there is none. */
static size_t slot_of(const cc_hashmap *m, uint64_t key, uint64_t h)
{
    if (m->count == 0) {
        return m->cap;
    }
    size_t mask = m->cap - 1, i = home_of(h, m->cap);
    uint8_t tag = tag_of(h);
    for (size_t d = 0; d < m->cap; d++, i = (i + 1) & mask) {
        uint8_t t = m->tags[i];
        if (t == 0) {
            break;
        }
        if (t == tag && m->slots[i].key == key) {
            return i;
        }
    }
    return m->cap;
}

uint64_t *cc_hashmap_get(const cc_hashmap *m, uint64_t key)
{
    size_t i = slot_of(m, key, cc_hash_u64(key));
    return i < m->cap ? &m->slots[i].value : NULL;
}

static uint64_t *insert_new(cc_hashmap *m, uint64_t key, uint64_t value, uint64_t h)
{
    if (room_for_one(m) != 0) {
        return NULL;
    }
    size_t i = empty_slot(m, h);
    m->slots[i].key = key;
    m->slots[i].value = value;
    m->tags[i] = tag_of(h);
    m->count++;
    return &m->slots[i].value;
}

uint64_t *cc_hashmap_get_or_add(cc_hashmap *m, uint64_t key, uint64_t initial, int *added)
{
    uint64_t h = cc_hash_u64(key);
    size_t i = slot_of(m, key, h);
    if (added != NULL) {
        *added = i == m->cap;
    }
    return i < m->cap ? &m->slots[i].value : insert_new(m, key, initial, h);
}

int cc_hashmap_put(cc_hashmap *m, uint64_t key, uint64_t value)
{
    int added = 0;
    uint64_t *v = cc_hashmap_get_or_add(m, key, value, &added);
    if (v == NULL) {
        return -1;
    }
    *v = value;
    return 0;
}

int cc_hashmap_add(cc_hashmap *m, uint64_t key, uint64_t value)
{
    return insert_new(m, key, value, cc_hash_u64(key)) != NULL ? 0 : -1;
}

/* Empties slot i and shifts back the entries after it that may move closer to their home. */
static void remove_at(cc_hashmap *m, size_t i)
{
    size_t mask = m->cap - 1, j = i;
    m->tags[i] = 0;
    for (;;) {
        j = (j + 1) & mask;
        if (m->tags[j] == 0) {
            break;
        }
        size_t home = home_of(cc_hash_u64(m->slots[j].key), m->cap);
        if (((j - home) & mask) >= ((j - i) & mask)) { /* the hole lies on its probe path */
            m->slots[i] = m->slots[j];
            m->tags[i] = m->tags[j];
            m->tags[j] = 0;
            i = j;
        }
    }
    m->count--;
}

int cc_hashmap_remove(cc_hashmap *m, uint64_t key, uint64_t *value)
{
    size_t i = slot_of(m, key, cc_hash_u64(key));
    if (i == m->cap) {
        return 0;
    }
    if (value != NULL) {
        *value = m->slots[i].value;
    }
    remove_at(m, i);
    return 1;
}

/* The slot of the next entry with key from probe *cursor on (advanced past it), or cap. */
static size_t next_of(const cc_hashmap *m, uint64_t key, size_t *cursor)
{
    if (m->count == 0) {
        return m->cap;
    }
    uint64_t h = cc_hash_u64(key);
    size_t mask = m->cap - 1, home = home_of(h, m->cap);
    uint8_t tag = tag_of(h);
    for (size_t d = *cursor; d < m->cap; d++) {
        size_t i = (home + d) & mask;
        uint8_t t = m->tags[i];
        if (t == 0) {
            break;
        }
        if (t == tag && m->slots[i].key == key) {
            *cursor = d + 1;
            return i;
        }
    }
    *cursor = m->cap;
    return m->cap;
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
        if (m->tags[i] != 0) {
            *cursor = i + 1;
            return &m->slots[i];
        }
    }
    *cursor = m->cap;
    return NULL;
}
