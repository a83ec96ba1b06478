/* Symbolic names of the text scenario form (`stream=s1`, `address=buf`): each distinct name gets
 * the 1-based index of its first appearance, so the same name always maps to the same id within
 * one reader. The names are kept in order of appearance; a hash table from each name's hash
 * finds them (names whose hashes are equal are told apart by their text). */
#include <stdlib.h>
#include <string.h>
#include "core/evtio_internal.h"
#include "core/grow.h"
#include "core/hashmap.h"

typedef struct name {
    char *text;
    size_t len;
} name;

struct cc_scenario_names {
    name *names; /* index - 1 */
    size_t count, cap;
    cc_hashmap by_hash; /* hash of the text -> index */
};

cc_scenario_names *cc_scenario_names_new(void)
{
    return calloc(1, sizeof(cc_scenario_names));
}

uint64_t cc_scenario_names_intern(cc_scenario_names *t, const char *text, size_t len)
{
    uint64_t h = cc_hash_bytes(text, len);
    size_t cursor = 0;
    for (uint64_t *index; (index = cc_hashmap_find_next(&t->by_hash, h, &cursor)) != NULL;) {
        const name *n = &t->names[*index - 1];
        if (n->len == len && memcmp(n->text, text, len) == 0) return *index;
    }
    if (CC_ARRAY_RESERVE(t->names, t->cap, t->count + 1)) return 0;
    char *copy = malloc(len + 1);
    if (!copy) return 0;
    if (cc_hashmap_add(&t->by_hash, h, t->count + 1) != 0) {
        free(copy);
        return 0;
    }
    memcpy(copy, text, len);
    copy[len] = '\0';
    t->names[t->count++] = (name){copy, len};
    return t->count;
}

void cc_scenario_names_free(cc_scenario_names *t)
{
    if (!t) return;
    for (size_t i = 0; i < t->count; i++) free(t->names[i].text);
    free(t->names);
    cc_hashmap_free(&t->by_hash);
    free(t);
}
