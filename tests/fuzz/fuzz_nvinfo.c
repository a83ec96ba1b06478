/* libFuzzer target: the .nv.info attribute-record iterator on arbitrary bytes. Records must
 * tile the input exactly (each starts where the previous ended and stays inside), and after an
 * error the iterator must stay failed. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>

#include "symbols/nvinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cc_nvinfo_iter it;
    cc_nvinfo_record r;
    char err[160];
    size_t expect = 0;
    uint64_t sum = 0;
    int rc;
    cc_nvinfo_begin(&it, data, size);
    while ((rc = cc_nvinfo_next(&it, &r, err, sizeof err)) == 1) {
        if (r.offset != expect)
            abort();
        size_t len = 4 + (r.format == CC_EIFMT_SVAL ? r.value : 0);
        if (r.offset + len > size)
            abort();
        if (r.data)
            for (uint32_t i = 0; i * 4 < r.value + 4; i++)
                sum += cc_nvinfo_u32(&r, i);
        if (cc_nvinfo_attr_name(r.attr))
            sum++;
        expect = r.offset + len;
    }
    if (rc == 0 && expect != size)
        abort();
    if (rc == -1 && cc_nvinfo_next(&it, &r, err, sizeof err) != -1)
        abort();
    return sum == 1 ? 0 : 0;
}
