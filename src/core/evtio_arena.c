/* The scratch arena of an event reader: bump allocation in chunks that never move, so the
 * strings and arrays of the event last read stay valid until the reader resets it for the next
 * event. Reset keeps the largest chunk, so steady-state reading allocates nothing. Chunks are
 * not core/grow.h arrays: growing one would move what the event already points to. */
#include <stdlib.h>
#include <string.h>
#include "core/evtio_internal.h"

struct cc_evt_arena_chunk {
    cc_evt_arena_chunk *next;
    size_t cap, used;
    _Alignas(16) unsigned char data[];
};

#define CHUNK_MIN 4096u

void *cc_evt_arena_alloc(cc_evt_arena *a, size_t size, size_t align)
{
    cc_evt_arena_chunk *c = a->head;
    if (align == 0 || align > 16) align = 16;
    if (c) {
        size_t at = (c->used + align - 1) & ~(align - 1);
        if (at <= c->cap && size <= c->cap - at) {
            c->used = at + size;
            return c->data + at;
        }
    }
    size_t cap = size > CHUNK_MIN ? size : CHUNK_MIN;
    if (c && c->cap < ((size_t)1 << 40) && c->cap * 2 > cap) cap = c->cap * 2; /* geometric */
    if (cap > (size_t)-1 - sizeof(cc_evt_arena_chunk)) return NULL;
    cc_evt_arena_chunk *n = malloc(sizeof(cc_evt_arena_chunk) + cap);
    if (!n) return NULL;
    n->next = c;
    n->cap = cap;
    n->used = size;
    a->head = n;
    return n->data;
}

char *cc_evt_arena_strndup(cc_evt_arena *a, const char *s, size_t n)
{
    if (n == (size_t)-1) return NULL;
    char *p = cc_evt_arena_alloc(a, n + 1, 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

void cc_evt_arena_reset(cc_evt_arena *a)
{
    cc_evt_arena_chunk *keep = NULL;
    for (cc_evt_arena_chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        if (!keep || c->cap > keep->cap) {
            free(keep);
            keep = c;
        } else {
            free(c);
        }
    }
    if (keep) {
        keep->next = NULL;
        keep->used = 0;
    }
    a->head = keep;
}

void cc_evt_arena_free(cc_evt_arena *a)
{
    for (cc_evt_arena_chunk *c = a->head, *next; c; c = next) {
        next = c->next;
        free(c);
    }
    a->head = NULL;
}
