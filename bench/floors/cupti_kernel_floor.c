/* The floor of CUPTI kernel tracing, for bench/profile_floor.sh: a preloaded library that does
 * nothing but what any CUPTI timeline needs at least — concurrent-kernel activity records into
 * 8 MiB buffers, counted and dropped, flushed at exit. No callbacks, no API records, no
 * analysis: whatever it costs, every CUPTI-based profiler costs at least that.
 * Build: cc -O2 -shared -fPIC -I<cupti include> -o libcupti_kernel_floor.so cupti_kernel_floor.c
 *        -L<cupti lib> -lcupti; run: LD_PRELOAD=./libcupti_kernel_floor.so program.
 * CUPTI_FLOOR_VERBOSE=1 prints the record count at exit. */
#include <cupti.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FLOOR_BUFFER_BYTES (8u << 20)

static unsigned long long floor_records;

static void CUPTIAPI floor_buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records)
{
    *buffer = aligned_alloc(8, FLOOR_BUFFER_BYTES);
    *size = *buffer != NULL ? FLOOR_BUFFER_BYTES : 0;
    *max_records = 0;
}

static void CUPTIAPI floor_buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer,
                                            size_t size, size_t valid)
{
    (void)ctx;
    (void)stream;
    (void)size;
    CUpti_Activity *record = NULL;
    while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
        floor_records++;
    free(buffer);
}

static void floor_at_exit(void)
{
    cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if (getenv("CUPTI_FLOOR_VERBOSE"))
        fprintf(stderr, "cupti_kernel_floor: %llu activity records\n", floor_records);
}

__attribute__((constructor)) static void floor_start(void)
{
    if (cuptiActivityRegisterCallbacks(floor_buffer_requested, floor_buffer_completed) !=
            CUPTI_SUCCESS ||
        cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
        fprintf(stderr, "cupti_kernel_floor: CUPTI refused; nothing is traced\n");
        return;
    }
    atexit(floor_at_exit);
}
