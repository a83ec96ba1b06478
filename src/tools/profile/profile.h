/* The profile tool's internal interfaces: the store of everything a run produced (kernels,
 * copies, API calls, NVTX ranges, synchronisations, devices, clock), the statistics built from
 * it (nsys-stats-like tables and per-launch-configuration occupancy), and the writers (Chrome /
 * Perfetto trace JSON, text / CSV / JSON summaries, optionally gzip'ed). Everything here is plain
 * C over events, so the CPU tests replay event streams through it. */
#ifndef CUCHECK_TOOLS_PROFILE_PROFILE_H
#define CUCHECK_TOOLS_PROFILE_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "core/hashmap.h"
#include "cucheck/event.h"
#include "symbols/demangle.h"

/* ---- the store ---- */
typedef struct cc_prof_kernel {
    uint64_t start, end, context, stream, corr, graph;
    int32_t device;
    uint32_t name;          /* interned */
    uint32_t grid[3], block[3], cluster[3];
    uint32_t regs, static_smem, dynamic_smem, local_mem, smem_config;
} cc_prof_kernel;

typedef struct cc_prof_copy {
    uint64_t start, end, context, stream, corr, bytes, graph;
    int32_t device;
    uint32_t op, direction, src_kind, dst_kind;
} cc_prof_copy;

typedef struct cc_prof_api {
    uint64_t start, end, corr;
    uint32_t tid, api, function; /* function: interned */
    int32_t result;
    int nested;             /* a driver call made inside a runtime call of the same thread */
} cc_prof_api;

typedef struct cc_prof_range {
    uint64_t start, end, id;
    uint32_t tid, name, domain; /* interned */
} cc_prof_range;

typedef struct cc_prof_sync {
    uint64_t start, end, context, stream, event, corr;
    uint32_t type;
} cc_prof_sync;

typedef struct cc_prof_device {
    int32_t ordinal;
    int has_limits;
    cc_ev_device_limits lim; /* name not kept: see name */
    uint32_t name;           /* interned */
    uint32_t cc_major, cc_minor, sm_count; /* from DEVICE or DEVICE_LIMITS */
} cc_prof_device;

typedef struct cc_prof_data {
    cc_prof_kernel *kernels; size_t nkernels, capkernels;
    cc_prof_copy *copies; size_t ncopies, capcopies;
    cc_prof_api *apis; size_t napis, capapis;
    cc_prof_range *ranges; size_t nranges, capranges;
    cc_prof_sync *syncs; size_t nsyncs, capsyncs;
    cc_prof_device *devices; size_t ndevices, capdevices;
    char **strs; size_t nstrs, capstrs; /* interned strings; id = index (0 = "") */
    cc_hashmap by_text;                 /* cc_hash_str of a string -> its id (texts compared) */
    uint64_t first_ts;      /* timestamp of the first event (0: none yet) */
    uint64_t last_ts;
    int has_clock;
    cc_ev_clock_sync clock; /* host not kept: see host */
    uint32_t host;          /* interned */
    uint32_t pid;
    uint32_t program;       /* interned argv0 */
    uint64_t dropped;       /* activity records the backend lost */
    int oom;                /* a record could not be stored */
} cc_prof_data;

void cc_prof_data_init(cc_prof_data *d);
void cc_prof_data_free(cc_prof_data *d);
void cc_prof_data_add(cc_prof_data *d, const cc_event *ev); /* keeps what the profile uses */
const char *cc_prof_str(const cc_prof_data *d, uint32_t id);
uint32_t cc_prof_intern(cc_prof_data *d, const char *s);
const cc_prof_device *cc_prof_find_device(const cc_prof_data *d, int32_t ordinal);
/* Marks driver API calls made inside a runtime call of the same thread as nested. */
void cc_prof_mark_nested(cc_prof_data *d);
/* Wall-clock ns of monotonic time mono (0 without a clock_sync event). */
uint64_t cc_prof_wall_of(const cc_prof_data *d, uint64_t mono);

/* ---- statistics ---- */
typedef struct cc_prof_stat {
    const char *name;       /* points into the data's strings or a static label */
    uint64_t count;
    double total, avg, med, min, max, stddev; /* ns (or bytes for size tables) */
    double percent;         /* of the table's summed total */
    double other;           /* memops by time: bytes moved; by size: ns spent (bandwidth) */
} cc_prof_stat;

typedef struct cc_prof_table {
    cc_prof_stat *rows;
    size_t n;
} cc_prof_table;

/* One distinct launch configuration of a kernel, with its occupancy. */
typedef struct cc_prof_launch {
    const char *name;
    int32_t device;
    uint32_t grid[3], block[3];
    uint32_t regs, static_smem, dynamic_smem, local_mem;
    uint64_t count;
    double total;           /* ns */
    int has_occupancy;      /* device limits were known */
    double occupancy;       /* theoretical, 0..1 */
    int blocks_per_sm, warps_per_sm, max_warps_per_sm;
    char limiter[64];       /* "registers", "shared_memory+warps", ... */
    double waves;           /* waves per SM */
    char why[256];          /* why occupancy is missing or 0 */
} cc_prof_launch;

typedef struct cc_prof_stats {
    cc_prof_table kernels, apis, mem_time, mem_size, nvtx;
    cc_prof_launch *launches; size_t nlaunches;
    uint64_t nested_driver_calls;
    double kernel_total_ns, gpu_span_ns;
} cc_prof_stats;

/* 0, or -1 when out of memory. d is sorted/marked as a side effect. */
int cc_prof_stats_build(cc_prof_data *d, cc_prof_stats *s);
void cc_prof_stats_free(cc_prof_stats *s);
/* Statistics of n values (sorted in place): count, total, avg, median, min, max, sample stddev. */
void cc_prof_stat_of(double *v, size_t n, cc_prof_stat *out);
/* "[CUDA memcpy Host-to-Device]", "[CUDA memset]", ... */
const char *cc_prof_memop_name(uint32_t op, uint32_t direction);

/* ---- writers ---- */
/* Kernels are named demangled through kernel_names (one demangling per distinct name for all the
 * writers of a process); NULL: the writer demangles through a table of its own. */
typedef enum { CC_PROF_SUMMARY_TEXT, CC_PROF_SUMMARY_CSV, CC_PROF_SUMMARY_JSON } cc_prof_format;
void cc_prof_write_summary(FILE *out, const cc_prof_data *d, const cc_prof_stats *s,
                           cc_prof_format f, cc_demangle_cache *kernel_names);
/* Chrome trace / Perfetto JSON of the whole run (d must have been through stats_build). */
int cc_prof_write_trace(FILE *out, const cc_prof_data *d, cc_demangle_cache *kernel_names);

/* Synthetic pids and tids of the trace (see docs/profile.md). */
#define CC_PROF_GPU_PID_BASE 10000000u  /* GPU d of process p: p + (d + 1) * base */
#define CC_PROF_SYNC_TID 4294901761u    /* the "CUDA synchronization" row of a process */

/* ---- output files: plain or gzip (zlib loaded at run time) ---- */
/* Opens path for writing; gzip when asked (and zlib is present). *gz_used says what happened. */
FILE *cc_prof_open_write(const char *path, int gzip, int *gz_used, char *err, size_t errlen);
/* Opens a regular file for reading (a FIFO or device is refused), gzip or plain (detected by
 * its magic). */
FILE *cc_prof_open_read(const char *path, char *err, size_t errlen);
int cc_prof_zlib_available(void);

/* ---- merging per-rank traces into one timeline ---- */
/* Writes one trace combining inputs[0..n) on the wall clock each file carries. 0, or -1 with a
 * one-line message in err. */
int cc_prof_merge_traces(const char *const *inputs, size_t n, FILE *out, char *err,
                         size_t errlen);

#endif
