/* Kernel parameter layouts from a cubin's .nv.info.<kernel> sections (see kparams.h). */
#include "symbols/kparams.h"
#include "symbols/elf.h"
#include "symbols/nvinfo.h"
#include "core/grow.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cc_kparam_decode(const unsigned char *data, size_t size, cc_kparam *out)
{
    if (data == NULL || size < 12)
        return -1;
    out->ordinal = cc_le16(data + 4);
    out->offset = cc_le16(data + 6);
    out->size = (cc_le32(data + 8) >> 18) & 0x3fffu;
    return 0;
}

static int by_ordinal(const void *a, const void *b)
{
    const cc_kparam *x = a, *y = b;
    return x->ordinal < y->ordinal ? -1 : x->ordinal > y->ordinal;
}

/* Parameters of one .nv.info.<kernel> section into *buf (grown as needed). Returns the count,
 * or -1 (err) on a malformed record or no memory. */
static long read_section(const cc_elf_section *s, cc_kparam **buf, size_t *cap,
                         uint32_t *param_bytes, char *err, size_t errlen)
{
    cc_nvinfo_iter it;
    cc_nvinfo_record r;
    int rc;
    size_t n = 0;
    *param_bytes = 0;
    cc_nvinfo_begin(&it, s->data, (size_t)s->size);
    while ((rc = cc_nvinfo_next(&it, &r, err, errlen)) == 1) {
        if (r.attr == CC_EIATTR_CBANK_PARAM_SIZE && r.format == CC_EIFMT_HVAL) {
            *param_bytes = r.value;
            continue;
        }
        cc_kparam p;
        if (r.attr != CC_EIATTR_KPARAM_INFO || r.format != CC_EIFMT_SVAL ||
            cc_kparam_decode(r.data, r.value, &p) != 0)
            continue;
        cc_kparam *slot = CC_ARRAY_PUSH(*buf, n, *cap);
        if (slot == NULL) {
            snprintf(err, errlen, "out of memory");
            return -1;
        }
        *slot = p;
    }
    if (rc < 0)
        return -1;
    qsort(*buf, n, sizeof **buf, by_ordinal);
    return (long)n;
}

int cc_cubin_kparams(const void *data, size_t size, cc_kparams_cb cb, void *user, char *err,
                     size_t errlen)
{
    cc_elf elf;
    if (cc_elf_open(&elf, data, size, err, errlen) != 0)
        return -1;
    if (elf.machine != CC_EM_CUDA) {
        snprintf(err, errlen, "not a cubin (e_machine %u)", elf.machine);
        return -1;
    }
    cc_kparam *buf = NULL;
    size_t cap = 0;
    int count = 0;
    for (uint32_t i = 1; i < elf.shnum; i++) {
        cc_elf_section s;
        if (cc_elf_get_section(&elf, i, &s) != 0 || strncmp(s.name, ".nv.info.", 9) != 0 ||
            s.name[9] == '\0' || s.data == NULL)
            continue;
        uint32_t param_bytes;
        long n = read_section(&s, &buf, &cap, &param_bytes, err, errlen);
        if (n < 0) {
            count = -1;
            break;
        }
        if (n == 0)
            continue;
        count++;
        if (cb != NULL && cb(s.name + 9, buf, (uint32_t)n, param_bytes, user) != 0)
            break;
    }
    free(buf);
    return count;
}
