/* libFuzzer target: the text scenario parser on arbitrary bytes. Every event it accepts must
 * round-trip unchanged through the text writer and through the binary encoder. */
#include <stdint.h>
#include <stddef.h>
#include "fuzz_roundtrip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_all(data, size, 1);
    return 0;
}
