/* Interned strings (strtab.h): the copies in core/hashmap.h by cc_hash_str (several per hash,
 * told apart by their text), and the memo of the pointers last interned. */
#include "core/strtab.h"

#include <stdlib.h>
#include <string.h>
#include "core/hash.h"
#include "core/hashmap.h"

#define CC_STRTAB_MEMO_BITS 9 /* 512 pointers, direct-mapped: a PyTorch step launches a few
                                * hundred kernels */
#define CC_STRTAB_MEMO (1u << CC_STRTAB_MEMO_BITS)

typedef struct cc_strtab_entry {
    uint64_t hash;
    char text[];
} cc_strtab_entry;

struct cc_strtab {
    cc_hashmap by_hash; /* cc_hash_str(text) -> cc_strtab_entry * */
    struct {
        const char *from;                 /* a pointer interned lately */
        const cc_strtab_entry *entry;     /* its text's entry then */
    } memo[CC_STRTAB_MEMO];
};

cc_strtab *cc_strtab_new(void)
{
    return calloc(1, sizeof(cc_strtab));
}

void cc_strtab_free(cc_strtab *t)
{
    if (t == NULL) {
        return;
    }
    size_t it = 0;
    for (cc_hashmap_slot *s; (s = cc_hashmap_next(&t->by_hash, &it)) != NULL;) {
        free((void *)(uintptr_t)s->value);
    }
    cc_hashmap_free(&t->by_hash);
    free(t);
}

static size_t memo_way(const char *s)
{
    return (size_t)(((uint64_t)(uintptr_t)s * 0x9E3779B97F4A7C15ull) >> (64 - CC_STRTAB_MEMO_BITS));
}

static const cc_strtab_entry *find_or_add(cc_strtab *t, const char *s, uint64_t h)
{
    size_t cursor = 0;
    for (uint64_t *v; (v = cc_hashmap_find_next(&t->by_hash, h, &cursor)) != NULL;) {
        const cc_strtab_entry *e = (const cc_strtab_entry *)(uintptr_t)*v;
        if (strcmp(e->text, s) == 0) {
            return e;
        }
    }
    size_t len = strlen(s);
    cc_strtab_entry *e = malloc(sizeof *e + len + 1);
    if (e == NULL) {
        return NULL;
    }
    e->hash = h;
    memcpy(e->text, s, len + 1);
    if (cc_hashmap_add(&t->by_hash, h, (uint64_t)(uintptr_t)e) != 0) {
        free(e);
        return NULL;
    }
    return e;
}

const char *cc_strtab_intern(cc_strtab *t, const char *s, uint64_t *hash)
{
    if (s == NULL) {
        s = "";
    }
    size_t way = memo_way(s);
    const cc_strtab_entry *e = t->memo[way].entry;
    if (t->memo[way].from != s || e == NULL || strcmp(e->text, s) != 0) {
        uint64_t h = cc_hash_str(s);
        e = find_or_add(t, s, h);
        if (e == NULL) {
            if (hash != NULL) {
                *hash = h;
            }
            return NULL;
        }
        t->memo[way].from = s;
        t->memo[way].entry = e;
    }
    if (hash != NULL) {
        *hash = e->hash;
    }
    return e->text;
}

size_t cc_strtab_count(const cc_strtab *t)
{
    return t != NULL ? t->by_hash.count : 0;
}
