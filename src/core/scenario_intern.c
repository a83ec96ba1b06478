/* Symbolic names of the text scenario form (`stream=s1`, `address=buf`): an open-addressing
 * hash table that gives each distinct name the 1-based index of its first appearance, so the
 * same name always maps to the same id within one reader. */
#include <stdlib.h>
#include <string.h>
#include "core/evtio_internal.h"

typedef struct slot {
    char *name; /* NULL: empty */
    size_t len;
    uint64_t index;
} slot;

struct cc_scenario_names {
    slot *slots;
    size_t cap, count;
};

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

cc_scenario_names *cc_scenario_names_new(void)
{
    return calloc(1, sizeof(cc_scenario_names));
}

static int grow(cc_scenario_names *t)
{
    size_t cap = t->cap ? t->cap * 2 : 64;
    slot *s = calloc(cap, sizeof *s);
    if (!s) return -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (!t->slots[i].name) continue;
        size_t j = hash(t->slots[i].name, t->slots[i].len) & (cap - 1);
        while (s[j].name) j = (j + 1) & (cap - 1);
        s[j] = t->slots[i];
    }
    free(t->slots);
    t->slots = s;
    t->cap = cap;
    return 0;
}

uint64_t cc_scenario_names_intern(cc_scenario_names *t, const char *name, size_t len)
{
    if ((t->count + 1) * 2 > t->cap && grow(t)) return 0;
    size_t j = hash(name, len) & (t->cap - 1);
    while (t->slots[j].name) {
        if (t->slots[j].len == len && memcmp(t->slots[j].name, name, len) == 0)
            return t->slots[j].index;
        j = (j + 1) & (t->cap - 1);
    }
    char *copy = malloc(len + 1);
    if (!copy) return 0;
    memcpy(copy, name, len);
    copy[len] = '\0';
    t->slots[j].name = copy;
    t->slots[j].len = len;
    t->slots[j].index = ++t->count;
    return t->slots[j].index;
}

void cc_scenario_names_free(cc_scenario_names *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->cap; i++) free(t->slots[i].name);
    free(t->slots);
    free(t);
}
