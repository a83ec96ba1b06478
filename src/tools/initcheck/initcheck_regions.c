/* The caching allocator's tensor blocks as initcheck names them: a torch SUBALLOC region is a
 * block handed to a new tensor (its bytes uninitialised again, init_model.c); its hand-over's
 * host stack (the Python frames of torch.empty) is the "allocation" of a finding inside it.
 * Sorted by base, disjoint; a heap's unregistration or reset drops the regions inside it. */
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"
#include "tools/initcheck/initcheck.h"

/* Index of the first region whose end lies past addr. */
static size_t first_after(const ic_state *s, uint64_t addr)
{
    size_t lo = 0, hi = s->nregions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->regions[mid].base + s->regions[mid].size <= addr) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return lo;
}

const ic_region *ic_region_find(const ic_state *s, uint64_t addr)
{
    size_t i = first_after(s, addr);
    return i < s->nregions && s->regions[i].base <= addr ? &s->regions[i] : NULL;
}

/* Drop the regions overlapping [lo, hi). */
static void drop(ic_state *s, uint64_t lo, uint64_t hi)
{
    size_t i = first_after(s, lo), j = i;
    while (j < s->nregions && s->regions[j].base < hi) {
        j++;
    }
    memmove(&s->regions[i], &s->regions[j], (s->nregions - j) * sizeof *s->regions);
    s->nregions -= j - i;
}

void ic_on_suballoc(ic_state *s, const cc_ev_suballoc *e)
{
    uint64_t end = e->address + e->size < e->address ? UINT64_MAX : e->address + e->size;
    switch (e->op) {
    case CC_SUBALLOC_OP_REGION_REGISTER: {
        if (e->source != CC_SUBALLOC_SRC_TORCH || e->size == 0) {
            break;
        }
        drop(s, e->address, end);
        if (CC_ARRAY_RESERVE(s->regions, s->regions_cap, s->nregions + 1) != 0) {
            break;
        }
        size_t i = first_after(s, e->address);
        memmove(&s->regions[i + 1], &s->regions[i], (s->nregions - i) * sizeof *s->regions);
        s->regions[i] = (ic_region){e->address, e->size, e->callsite};
        s->nregions++;
        break;
    }
    case CC_SUBALLOC_OP_REGION_UNREGISTER: {
        size_t i = first_after(s, e->address);
        if (i < s->nregions && s->regions[i].base == e->address) {
            drop(s, e->address, e->address + 1);
        }
        break;
    }
    case CC_SUBALLOC_OP_HEAP_UNREGISTER:
    case CC_SUBALLOC_OP_HEAP_RESET:
        if (e->size > 0) {
            drop(s, e->address, end);
        }
        break;
    default:
        break;
    }
}

void ic_regions_free(ic_state *s)
{
    free(s->regions);
    s->regions = NULL;
    s->nregions = s->regions_cap = 0;
}
