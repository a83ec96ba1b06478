/* Reading this process's GPU core dump at the first sticky error (coredump_agent.h): the driver
 * writes it while the failing call waits; the file is read once (waiting up to 3 s for it to
 * appear complete), parsed by the CUDA-free reader (symbols/cudacore_dump.h) and reported as a
 * CC_EV_DEVICE_FAULT event ahead of the API_ERROR. Runs on the failing thread, outside any lock;
 * it makes no CUDA call. */
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "agent/tools/run/coredump_agent.h"
#include "symbols/cudacore_dump.h"

#define CC_COREDUMP_MAX_BYTES (1024ull << 20) /* larger files are not read */
#define CC_COREDUMP_WAIT_MS 3000

static atomic_int cc_coredump_done;

static void cc_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* Maps the file; 1 and *fault filled when it parsed with a fault, 0 otherwise (err says why). */
static int cc_read_dump(const char *path, void **map, size_t *len, cc_cudacore_fault *fault,
                        char *err, size_t errlen)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    *map = NULL;
    if (fd < 0) {
        snprintf(err, errlen, "no core dump at %s", path);
        return 0;
    }
    if (fstat(fd, &st) != 0 || st.st_size <= 0 || (uint64_t)st.st_size > CC_COREDUMP_MAX_BYTES) {
        snprintf(err, errlen, "core dump %s is empty or too large", path);
        close(fd);
        return 0;
    }
    *len = (size_t)st.st_size;
    *map = mmap(NULL, *len, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (*map == MAP_FAILED) {
        *map = NULL;
        snprintf(err, errlen, "cannot map %s", path);
        return 0;
    }
    if (cc_cudacore_parse(*map, *len, fault, err, errlen) == 1) {
        return 1;
    }
    munmap(*map, *len);
    *map = NULL;
    return 0;
}

void cc_agent_coredump_on_sticky(void)
{
    const char *path = cc_agent_coredump_path();
    if (path[0] == '\0' || atomic_exchange(&cc_coredump_done, 1) != 0) {
        return;
    }
    void *map = NULL;
    size_t len = 0;
    cc_cudacore_fault f;
    char err[256] = "";
    for (int waited = 0;; waited += 50) {
        if (cc_read_dump(path, &map, &len, &f, err, sizeof err) == 1) {
            break;
        }
        if (waited >= CC_COREDUMP_WAIT_MS) {
            cc_agent_note("GPU core dump not usable: %s", err);
            return;
        }
        cc_sleep_ms(50);
    }
    /* Whole: mangled CUTLASS, cuDNN and cuBLASLt names run past 1,024 characters, and the tool
     * matches the fault to its launch by this name. Static: read once per process. */
    static char kernel[16384];
    uint64_t offset = 0;
    const char *file = "";
    uint32_t line = 0;
    cc_cudacore_locate(&f, kernel, sizeof kernel, &offset, &file, &line);
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_DEVICE_FAULT);
    cc_ev_device_fault *d = &ev.u.device_fault;
    d->grid_id = f.grid_id;
    d->device = (int32_t)f.device;
    d->exception = f.exception;
    d->exception_name = cc_cudacore_exception_name(f.exception);
    d->kernel = kernel;
    d->pc = f.pc_valid ? f.pc : 0;
    d->pc_offset = offset;
    d->file = file;
    d->line = line;
    memcpy(d->block, f.block, sizeof d->block);
    memcpy(d->thread, f.thread, sizeof d->thread);
    memcpy(d->grid, f.grid_dim, sizeof d->grid);
    memcpy(d->block_dim, f.block_dim, sizeof d->block_dim);
    d->sm = f.sm;
    d->warp = f.warp;
    d->lane = f.lane;
    d->host_tid = f.host_tid;
    d->faulting_lanes = f.faulting_lanes;
    d->dump = path;
    cc_agent_emit(&ev);
    munmap(map, len);
}
