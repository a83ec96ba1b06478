/* Parameter words + allocation map -> the ranges a launch may access (see ptr_infer.h). */
#include "core/ptr_infer.h"

#include <string.h>

/* Add [a, a+n) to the sorted, disjoint out[0..*count), merging what it overlaps or touches.
 * Returns 0, or -1 when a new entry was needed and out is full. */
static int add_range(cc_ptr_range *out, size_t *count, size_t cap, uint64_t a, uint64_t n)
{
    uint64_t end = a + n;
    size_t i = 0;
    while (i < *count && out[i].address + out[i].size < a) {
        i++; /* ranges wholly before a (not even touching) */
    }
    size_t j = i;
    while (j < *count && out[j].address <= end) {
        uint64_t oend = out[j].address + out[j].size;
        if (out[j].address < a) {
            a = out[j].address;
        }
        if (oend > end) {
            end = oend;
        }
        j++;
    }
    if (j > i) { /* out[i..j) merge into out[i] */
        out[i].address = a;
        out[i].size = end - a;
        memmove(&out[i + 1], &out[j], (*count - j) * sizeof *out);
        *count -= j - i - 1;
        return 0;
    }
    if (*count == cap) {
        return -1;
    }
    memmove(&out[i + 1], &out[i], (*count - i) * sizeof *out);
    out[i].address = a;
    out[i].size = end - a;
    (*count)++;
    return 0;
}

static void scan_word(const unsigned char *p, const cc_allocmap *allocs, uint32_t policy,
                      cc_ptr_range *out, size_t *count, size_t cap, cc_ptr_infer_stats *st)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    st->words++;
    const cc_alloc_rec *r = cc_allocmap_find(allocs, v);
    if (r == NULL || r->size == 0) {
        return; /* not a device address we know (host pointer, integer, one past the end) */
    }
    st->pointers++;
    uint64_t a = policy == CC_PTR_WHOLE_ALLOC ? r->base : v;
    if (add_range(out, count, cap, a, r->base + r->size - a) != 0) {
        st->dropped++;
    }
}

const unsigned char *cc_ptr_extra_buffer(void *const *extra, size_t max_pairs, size_t max_len,
                                         size_t *len)
{
    const unsigned char *buf = NULL;
    size_t n = 0;
    for (size_t i = 0; extra != NULL && i < max_pairs && extra[2 * i] != NULL; i++) {
        uintptr_t key = (uintptr_t)extra[2 * i];
        void *value = extra[2 * i + 1];
        if (key == 1) {
            buf = value;
        } else if (key == 2 && value != NULL) {
            n = *(const size_t *)value;
        } else {
            break; /* an unknown key: its value's meaning is unknown too */
        }
    }
    *len = buf != NULL ? (n < max_len ? n : max_len) : 0;
    return buf;
}

size_t cc_ptr_infer(const unsigned char *buf, size_t len, const cc_ptr_slot *slots, size_t nslots,
                    const cc_allocmap *allocs, uint32_t policy, cc_ptr_range *out, size_t cap,
                    cc_ptr_infer_stats *stats)
{
    cc_ptr_infer_stats st = {0, 0, 0};
    size_t count = 0;
    if (buf != NULL && allocs != NULL && out != NULL && cap > 0) {
        if (nslots == 0 || slots == NULL) {
            for (size_t off = 0; off + 8 <= len; off += 8) {
                scan_word(buf + off, allocs, policy, out, &count, cap, &st);
            }
        }
        for (size_t s = 0; slots != NULL && s < nslots; s++) {
            uint64_t start = ((uint64_t)slots[s].offset + 7u) & ~(uint64_t)7u;
            uint64_t end = (uint64_t)slots[s].offset + slots[s].size;
            if (end > len) {
                end = len;
            }
            for (uint64_t off = start; off + 8 <= end; off += 8) {
                scan_word(buf + off, allocs, policy, out, &count, cap, &st);
            }
        }
    }
    if (stats != NULL) {
        *stats = st;
    }
    return count;
}
