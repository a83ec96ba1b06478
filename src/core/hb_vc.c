/* Vector clocks (see hb_vc.h): dense arrays grown on demand. */
#include "core/hb_vc.h"

#include <stdlib.h>
#include <string.h>
#include "core/grow.h"

void cc_hb_vc_free(cc_hb_vc *v)
{
    free(v->c);
    memset(v, 0, sizeof *v);
}

uint64_t cc_hb_vc_get(const cc_hb_vc *v, uint32_t actor)
{
    return actor < v->n ? v->c[actor] : 0;
}

static int grow(cc_hb_vc *v, uint32_t n)
{
    if (n <= v->n) return 0;
    if (CC_ARRAY_RESERVE(v->c, v->cap, n)) return -1;
    memset(v->c + v->n, 0, (size_t)(n - v->n) * sizeof *v->c);
    v->n = n;
    return 0;
}

int cc_hb_vc_set(cc_hb_vc *v, uint32_t actor, uint64_t value)
{
    if (grow(v, actor + 1) != 0) return -1;
    v->c[actor] = value;
    return 0;
}

int cc_hb_vc_join(cc_hb_vc *dst, const cc_hb_vc *src)
{
    if (grow(dst, src->n) != 0) return -1;
    for (uint32_t i = 0; i < src->n; i++)
        if (src->c[i] > dst->c[i]) dst->c[i] = src->c[i];
    return 0;
}

int cc_hb_vc_copy(cc_hb_vc *dst, const cc_hb_vc *src)
{
    if (dst == src) return 0;
    if (CC_ARRAY_RESERVE(dst->c, dst->cap, src->n)) return -1;
    if (src->n) memcpy(dst->c, src->c, (size_t)src->n * sizeof *src->c);
    dst->n = src->n;
    return 0;
}

uint64_t cc_hb_vc_tick(cc_hb_vc *v, uint32_t actor)
{
    uint64_t next = cc_hb_vc_get(v, actor) + 1;
    return cc_hb_vc_set(v, actor, next) == 0 ? next : 0;
}
