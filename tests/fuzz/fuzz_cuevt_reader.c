/* libFuzzer target: the binary .cuevt reader on arbitrary bytes. Every event it accepts must
 * round-trip unchanged through the encoder and through the text scenario form. */
#include <stdint.h>
#include <stddef.h>
#include "fuzz_roundtrip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_read_all(data, size, 0);
    return 0;
}
