/* libFuzzer target: the GPU core dump reader (symbols/cudacore_dump.h) on arbitrary bytes:
 * parse, the exception name, and kernel/line lookup in the dump's relocated image. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/cudacore_dump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256], kernel[256];
    cc_cudacore_fault f;
    size_t sum = 0;
    int r = cc_cudacore_parse(data, size, &f, err, sizeof err);
    if (r < -1 || r > 1)
        abort();
    if (r == 1) {
        uint64_t off;
        const char *file;
        uint32_t line;
        if (f.image && (f.image < data || f.image + f.image_size > data + size))
            abort(); /* the image must lie inside the dump */
        cc_cudacore_locate(&f, kernel, sizeof kernel, &off, &file, &line);
        sum += strlen(kernel) + strlen(file) + line + strlen(cc_cudacore_exception_name(f.exception));
    }
    return sum == 1 ? 0 : 0;
}
