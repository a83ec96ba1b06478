/* Parameter words + allocation map -> the ranges a launch may access (see ptr_infer.h). */
#include "core/ptr_infer.h"

#include <string.h>

int cc_ptr_range_add(cc_ptr_range *out, size_t *count, size_t cap, uint64_t a, uint64_t n)
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

/* Calls fn for the word at buf[off] if it points into a live allocation; 1 if fn said stop. */
typedef struct scan_span {
    uint64_t lo, hi; /* cc_allocmap_span: words outside cannot point into an allocation */
} scan_span;

static int scan_word(const unsigned char *buf, uint64_t off, const cc_allocmap *allocs,
                     const scan_span *span, cc_ptr_word_fn fn, void *arg, uint32_t *words)
{
    uint64_t v;
    memcpy(&v, buf + off, sizeof v);
    (*words)++;
    if (v < span->lo || v >= span->hi) {
        return 0; /* most words of a parameter buffer: sizes, strides, flags */
    }
    const cc_alloc_rec *r = cc_allocmap_find(allocs, v);
    if (r == NULL || r->size == 0) {
        return 0; /* not a device address we know (host pointer, integer, one past the end) */
    }
    return fn((uint32_t)off, v, r, arg);
}

uint32_t cc_ptr_scan(const unsigned char *buf, size_t len, const cc_ptr_slot *slots,
                     size_t nslots, const cc_allocmap *allocs, cc_ptr_word_fn fn, void *arg)
{
    uint32_t words = 0;
    if (buf == NULL || allocs == NULL) {
        return 0;
    }
    scan_span span;
    cc_allocmap_span(allocs, &span.lo, &span.hi);
    if (nslots == 0 || slots == NULL) {
        for (uint64_t off = 0; off + 8 <= len; off += 8) {
            if (scan_word(buf, off, allocs, &span, fn, arg, &words)) {
                return words;
            }
        }
        return words;
    }
    for (size_t s = 0; s < nslots; s++) {
        uint64_t start = ((uint64_t)slots[s].offset + 7u) & ~(uint64_t)7u;
        uint64_t end = (uint64_t)slots[s].offset + slots[s].size;
        if (end > len) {
            end = len;
        }
        for (uint64_t off = start; off + 8 <= end; off += 8) {
            if (scan_word(buf, off, allocs, &span, fn, arg, &words)) {
                return words;
            }
        }
    }
    return words;
}

typedef struct infer_ctx {
    uint32_t policy;
    cc_ptr_range *out;
    size_t count, cap;
    cc_ptr_infer_stats st;
} infer_ctx;

static int infer_word(uint32_t offset, uint64_t value, const cc_alloc_rec *r, void *arg)
{
    (void)offset;
    infer_ctx *c = arg;
    c->st.pointers++;
    uint64_t a = c->policy == CC_PTR_WHOLE_ALLOC ? r->base : value;
    if (cc_ptr_range_add(c->out, &c->count, c->cap, a, r->base + r->size - a) != 0) {
        c->st.dropped++;
    }
    return 0;
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
    infer_ctx c = {policy, out, 0, cap, {0, 0, 0}};
    if (out != NULL && cap > 0) {
        c.st.words = cc_ptr_scan(buf, len, slots, nslots, allocs, infer_word, &c);
    }
    if (stats != NULL) {
        *stats = c.st;
    }
    return c.count;
}
