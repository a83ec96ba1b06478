/* The growth step of the one growable array (grow.h). */
#include "core/grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CC_ARRAY_MIN 8

int cc_array_grow(void **data, size_t *cap, size_t need, size_t elem_size)
{
    if (need <= *cap) {
        return 0;
    }
    /* No object may exceed PTRDIFF_MAX bytes: need * elem_size must stay below it. */
    size_t max = elem_size != 0 ? (size_t)PTRDIFF_MAX / elem_size : (size_t)PTRDIFF_MAX;
    if (need > max) {
        return -1;
    }
    size_t ncap = *cap <= max / 2 ? *cap * 2 : max;
    if (ncap < need) {
        ncap = need;
    }
    if (ncap < CC_ARRAY_MIN && CC_ARRAY_MIN <= max) {
        ncap = CC_ARRAY_MIN;
    }
    void *old;
    memcpy(&old, data, sizeof old); /* *data is some T *: read and written as bytes */
    void *p = realloc(old, ncap * (elem_size != 0 ? elem_size : 1));
    if (p == NULL) {
        return -1;
    }
    memcpy(data, &p, sizeof p);
    *cap = ncap;
    return 0;
}
