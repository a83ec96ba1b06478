/* Per-architecture rules that cuda_occupancy.h hard-codes by compute capability (not read from the
 * device): allocation granularities, register and block caps, barriers, carveout configurations
 * and the shared-memory preference. Source: occupancy_spec.md sections 3, 4.5 and 5.1. */
#include "occupancy/occ_engine.h"

#define KB 1024u

cc_occ_status cc_occ_smem_granularity(const cc_occ_device *d, int *bytes)
{
    switch (d->major) {
    case 3: case 5: case 6: case 7: *bytes = 256; return CC_OCC_OK;
    case 8: case 9: case 10: case 11: case 12: *bytes = 128; return CC_OCC_OK;
    default: return CC_OCC_ERR_UNKNOWN_DEVICE;
    }
}

static int known_major(int major)
{
    return major == 3 || (major >= 5 && major <= 12);
}

cc_occ_status cc_occ_max_regs_per_thread(const cc_occ_device *d, int *regs)
{
    if (!known_major(d->major)) return CC_OCC_ERR_UNKNOWN_DEVICE;
    *regs = d->major <= 6 ? 255 : 256;
    return CC_OCC_OK;
}

cc_occ_status cc_occ_sub_partitions(const cc_occ_device *d, int *n)
{
    if (!known_major(d->major)) return CC_OCC_ERR_UNKNOWN_DEVICE;
    *n = (d->major == 6 && d->minor == 0) ? 2 : 4;
    return CC_OCC_OK;
}

cc_occ_status cc_occ_max_blocks_per_sm(const cc_occ_device *d, int *n)
{
    switch (d->major) {
    case 3: *n = 16; break;
    case 5: case 6: *n = 32; break;
    case 7: *n = d->minor == 5 ? 16 : 32; break;
    case 8: *n = d->minor == 0 ? 32 : d->minor == 9 ? 24 : 16; break;
    case 9: *n = 32; break;
    case 10: *n = d->minor == 1 ? 24 : 32; break;
    case 11: *n = d->minor == 0 ? 24 : 32; break;
    case 12: *n = 24; break;
    default: return CC_OCC_ERR_UNKNOWN_DEVICE;
    }
    return CC_OCC_OK;
}

/* Barrier units per block slot: 1 on 10.1, 11.0 and 12.x, otherwise 2 (only used from CC 9 on). */
static int barrier_factor(const cc_occ_device *d)
{
    if ((d->major == 10 && d->minor == 1) || (d->major == 11 && d->minor == 0) || d->major == 12)
        return 1;
    if (d->major == 8 && d->minor != 0) return 1;
    return 2;
}

cc_occ_status cc_occ_barriers_per_sm(const cc_occ_device *d, int *n)
{
    int blocks;
    cc_occ_status st = cc_occ_max_blocks_per_sm(d, &blocks);
    if (st != CC_OCC_OK) return st;
    *n = d->major >= 9 ? blocks * barrier_factor(d) : 0;
    return CC_OCC_OK;
}

int cc_occ_virtual_resources_per_sm(const cc_occ_device *d)
{
    return (d->major >= 10 && d->major <= 12) ? 128 : 0;
}

int cc_occ_gc_supported(const cc_occ_device *d)
{
    return (d->major == 5 && (d->minor == 2 || d->minor == 3)) || (d->major == 6 && d->minor != 0);
}

static const unsigned cfg_volta[] = {0, 8, 16, 32, 64, 96};
static const unsigned cfg_turing[] = {32, 64};
static const unsigned cfg_ga100[] = {0, 8, 16, 32, 64, 100, 132, 164};
static const unsigned cfg_ga10x[] = {0, 8, 16, 32, 64, 100};
static const unsigned cfg_hopper[] = {0, 8, 16, 32, 64, 100, 132, 164, 196, 228};

/* The configuration table for this CC; NULL with status for dedicated/unknown parts. */
static const unsigned *config_table(const cc_occ_device *d, int *count, cc_occ_status *st)
{
    *st = CC_OCC_OK;
#define TABLE(t) (*count = (int)(sizeof(t) / sizeof(t[0])), t)
    switch (d->major) {
    case 7: return d->minor == 5 ? TABLE(cfg_turing) : TABLE(cfg_volta);
    case 8: return (d->minor == 0 || d->minor == 7) ? TABLE(cfg_ga100) : TABLE(cfg_ga10x);
    case 9: return TABLE(cfg_hopper);
    case 10: case 11:
        if (d->minor == 0 || d->minor == 1 || d->minor == 3) return TABLE(cfg_hopper);
        break;
    case 12:
        if (d->minor == 0 || d->minor == 1) return TABLE(cfg_ga10x);
        break;
    default: break;
    }
#undef TABLE
    *count = 0;
    *st = CC_OCC_ERR_UNKNOWN_DEVICE;
    return NULL;
}

int cc_occ_smem_configs(const cc_occ_device *d, size_t *out, int max_out)
{
    int n = 0;
    cc_occ_status st;
    const unsigned *t = config_table(d, &n, &st);
    if (!t) return 0;
    for (int i = 0; i < n && i < max_out; i++) out[i] = (size_t)t[i] * KB;
    return n < max_out ? n : max_out;
}

cc_occ_status cc_occ_align_up_to_config(const cc_occ_device *d, size_t size, size_t *out)
{
    int n = 0;
    cc_occ_status st;
    const unsigned *t = config_table(d, &n, &st);
    if (!t) return st;
    for (int i = 0; i < n; i++) {
        if (size <= (size_t)t[i] * KB) {
            *out = (size_t)t[i] * KB;
            return CC_OCC_OK;
        }
    }
    return CC_OCC_ERR_INVALID_INPUT;
}

cc_occ_status cc_occ_smem_preference(const cc_occ_device *d, const cc_occ_state *s, size_t *out)
{
    size_t hi = d->smem_per_sm;
    if (d->major >= 7) {
        int c = s->carveout;
        if (c < -1 || c > 100) return CC_OCC_ERR_INVALID_INPUT;
        if (c == -1) {
            if (s->cache == CC_OCC_CACHE_L1) c = 0;
            else if (s->cache == CC_OCC_CACHE_SHARED) c = 100;
            else if (s->cache == CC_OCC_CACHE_EQUAL) c = 50;
        }
        size_t size = c == -1 ? hi : ((size_t)c * hi) / 100;
        return cc_occ_align_up_to_config(d, size, out);
    }
    if (d->major == 3) {
        size_t lo = hi + 16384 - 49152;
        if (s->cache == CC_OCC_CACHE_L1) *out = lo;
        else if (s->cache == CC_OCC_CACHE_EQUAL) *out = (hi + lo) / 2;
        else *out = hi;
        return CC_OCC_OK;
    }
    if (d->major == 5 || d->major == 6) {
        *out = hi;
        return CC_OCC_OK;
    }
    return CC_OCC_ERR_UNKNOWN_DEVICE;
}

cc_occ_status cc_occ_smem_per_block_limit(const cc_occ_device *d, cc_occ_smem_limit cfg,
                                          size_t smem_per_cta, size_t *out)
{
    size_t lim;
    if (d->major >= 2 && d->major <= 6) {
        lim = d->smem_per_block;
    } else if (d->major >= 7 && d->major <= 12) {
        lim = (cfg == CC_OCC_SMEM_LIMIT_OPTIN && smem_per_cta > d->smem_per_block)
                  ? d->smem_per_block_optin : d->smem_per_block;
    } else {
        return CC_OCC_ERR_UNKNOWN_DEVICE;
    }
    if (d->major >= 8) lim += d->reserved_smem_per_block;
    *out = lim;
    return CC_OCC_OK;
}

const char *cc_occ_status_str(cc_occ_status st)
{
    switch (st) {
    case CC_OCC_OK: return "success";
    case CC_OCC_ERR_INVALID_INPUT: return "invalid input";
    case CC_OCC_ERR_UNKNOWN_DEVICE: return "unknown device (compute capability not supported)";
    }
    return "unknown error";
}
