/* cucheck occupancy, the layer above the engine: a kernel launch described the way a user sees it
 * (threads, registers, static/dynamic shared memory, launch bounds, carveout, grid), its analysis
 * (limits, occupancy, waves, why it cannot launch), advice, what-if curves, SVG plots, text/JSON
 * output, live-device and binary inputs. */
#ifndef CUCHECK_OCCUPANCY_OCCUPANCY_H
#define CUCHECK_OCCUPANCY_OCCUPANCY_H

#include <stdio.h>

#include "occupancy/occ_engine.h"
#include "occupancy/occ_presets.h"

typedef struct {
    int threads;            /* block size */
    int regs;               /* registers per thread */
    size_t smem_static;
    size_t smem_dynamic;
    int max_threads;        /* __launch_bounds__ max threads; 0 = none */
    int min_blocks;         /* __launch_bounds__ min blocks per SM; 0 = none (informational) */
    size_t max_dyn_smem;    /* cudaFuncAttributeMaxDynamicSharedMemorySize; 0 = implied (see docs) */
    int carveout;           /* -1 default, 0..100 percent */
    int barriers;           /* named barriers used; runtime default 1 */
    long long grid;         /* blocks in the grid; 0 = not given */
    size_t local_bytes;     /* local memory per thread (informational) */
    int reg_cap;            /* register cap ptxas honoured (EIATTR_MAXREG_COUNT); 0 = none */
} cc_occ_kernel;

void cc_occ_kernel_init(cc_occ_kernel *k); /* defaults: carveout -1, barriers 1, rest 0 */

/* Engine inputs for this kernel: runtime-style attributes (opt-in limit; a kernel whose
 * static + dynamic shared memory exceeds the 48 KiB default has opted in with
 * max dynamic = its dynamic size, unless max_dyn_smem says otherwise). */
void cc_occ_kernel_to_func(const cc_occ_device *d, const cc_occ_kernel *k, cc_occ_func *f,
                           cc_occ_state *s);

typedef struct {
    cc_occ_status status;
    cc_occ_result r;
    int warps_per_block;
    int warps_per_sm;
    int max_warps_per_sm;
    double occupancy;          /* 0..1 */
    char reason[256];          /* why 0 blocks / the error; "" otherwise */
    double waves;              /* grid / (blocks * SMs); 0 without a grid */
    long long full_waves;
    long long tail_blocks;     /* blocks in the last partial wave; 0 if none */
} cc_occ_analysis;

cc_occ_status cc_occ_analyze(const cc_occ_device *d, const cc_occ_kernel *k, cc_occ_analysis *a);
/* Active warps per SM for a kernel (0 when it cannot launch or on error). */
int cc_occ_warps_for(const cc_occ_device *d, const cc_occ_kernel *k);

/* Names of the limiters set in a CC_OCC_LIMIT_* mask: "warps", "registers", "shared_memory",
 * "blocks", "barriers", "virtual_resources". */
int cc_occ_limiter_names(unsigned mask, const char **names, int cap);

/* ---- advice ---- */
typedef struct {
    char kind[24];          /* "block_size", "registers", "shared_memory", "fit", "carveout" */
    char text[320];
    int new_warps_per_sm;
    double new_occupancy;
} cc_occ_advice;

/* Fills up to cap items; returns the count. */
int cc_occ_advise(const cc_occ_device *d, const cc_occ_kernel *k, cc_occ_advice *out, int cap);

/* ---- what-if curves ---- */
typedef enum { CC_OCC_CURVE_BLOCK_SIZE, CC_OCC_CURVE_REGISTERS, CC_OCC_CURVE_SHARED_MEMORY } cc_occ_curve_kind;

typedef struct {
    cc_occ_curve_kind kind;
    const char *title;      /* "Impact of Varying Block Size" */
    const char *x_label;
    int n;
    long *x;                /* malloc'd */
    int *warps;             /* malloc'd; active warps per SM at x */
    long current_x;
    int current_warps;
    int max_warps;
} cc_occ_curve;

int cc_occ_curve_build(const cc_occ_device *d, const cc_occ_kernel *k, cc_occ_curve_kind kind,
                       cc_occ_curve *c); /* 0 ok */
void cc_occ_curve_free(cc_occ_curve *c);
/* Text table with runs of equal values merged; the current point is marked. */
void cc_occ_curve_print(FILE *out, const cc_occ_curve *c);
/* Self-contained SVG step chart (warps and % occupancy axes, current point marked). */
int cc_occ_curve_svg(FILE *out, const cc_occ_curve *c, const char *subtitle);
const char *cc_occ_curve_file_name(cc_occ_curve_kind kind); /* "occupancy_block_size.svg" */

/* ---- output ---- */
typedef struct {
    const char *arch;       /* "sm_80" */
    const char *device_name;/* "A100 SXM (preset)" or the live device name */
    const char *kernel_name;/* NULL for a hand-described kernel */
} cc_occ_labels;

void cc_occ_print_text(FILE *out, const cc_occ_device *d, const cc_occ_kernel *k,
                       const cc_occ_analysis *a, const cc_occ_labels *l, int with_advice);
/* One JSON object (no trailing newline); curves included when with_curves. */
void cc_occ_print_json(FILE *out, const cc_occ_device *d, const cc_occ_kernel *k,
                       const cc_occ_analysis *a, const cc_occ_labels *l, int with_curves);
void cc_occ_json_string(FILE *out, const char *s);

/* ---- live device (CUDA driver loaded with dlopen at run time) ---- */
/* 0 on success; -1 with a one-line message in err. */
int cc_occ_device_from_gpu(int ordinal, cc_occ_device *d, char *name, size_t name_cap, char *err,
                           size_t err_cap);

#endif
