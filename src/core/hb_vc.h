/* Vector clocks for the happens-before engine (hb_*.c): one logical clock per actor (a stream, a
 * host thread or a graph node), stored densely by actor index. Missing entries read as 0. */
#ifndef CUCHECK_CORE_HB_VC_H
#define CUCHECK_CORE_HB_VC_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_hb_vc {
    uint64_t *c;
    size_t cap;
    uint32_t n;       /* entries in use (actors 0..n-1) */
} cc_hb_vc;

void cc_hb_vc_free(cc_hb_vc *v);
uint64_t cc_hb_vc_get(const cc_hb_vc *v, uint32_t actor);
/* The setters return 0, or -1 when memory ran out (the clock is then left unchanged). */
int cc_hb_vc_set(cc_hb_vc *v, uint32_t actor, uint64_t value);
int cc_hb_vc_join(cc_hb_vc *dst, const cc_hb_vc *src); /* element-wise maximum */
int cc_hb_vc_copy(cc_hb_vc *dst, const cc_hb_vc *src);
/* Advance actor's own entry; returns the new value (0 when memory ran out). */
uint64_t cc_hb_vc_tick(cc_hb_vc *v, uint32_t actor);

#endif
