/* Per-architecture device presets for offline use (--arch sm_XX): the cudaDeviceProp values the
 * occupancy engine needs, with the SM count of a typical part. Sources are documented per row in
 * occ_presets.c and in docs/occupancy.md. */
#ifndef CUCHECK_OCCUPANCY_OCC_PRESETS_H
#define CUCHECK_OCCUPANCY_OCC_PRESETS_H

#include "occupancy/occ_engine.h"

typedef struct {
    const char *arch;       /* "sm_80" */
    const char *part;       /* typical part whose SM count is used: "A100 SXM" */
    const char *source;     /* where the values come from */
    cc_occ_device dev;
} cc_occ_preset;

int cc_occ_preset_count(void);
const cc_occ_preset *cc_occ_preset_at(int i);
/* Accepts sm_80, sm_90a, sm_100f, compute_80, 80, 8.0, or a part name such as a100 / h100
 * (case-insensitive). NULL if unknown. */
const cc_occ_preset *cc_occ_preset_find(const char *name);
/* Comma-separated list of the preset arch names, for error messages. */
const char *cc_occ_preset_names(void);

#endif
