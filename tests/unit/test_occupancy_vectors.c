/* The occupancy engine against the test vectors of occupancy_spec.md section 10 (each row is the
 * output of the CUDA 13.0 cuda_occupancy.h), the block-size search (P1-P8) and the available
 * dynamic shared memory (A1-A7), plus preset lookup. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "occupancy/occ_engine.h"
#include "occupancy/occ_presets.h"

#define M INT_MAX

typedef struct {
    const char *id;
    int major, minor, threads, regs;
    size_t static_smem, dyn;
    int optin, carveout;
    size_t max_dyn;
    int barriers, cache, gc, vrc;
    int err;                 /* expected status; 0 = success */
    int blocks;
    unsigned factors;
    int lim[6];              /* warps, regs, smem, blocks, barriers, virtual */
    int alloc_regs;
    size_t alloc_smem;
} vec;

static const vec vectors[] = {
    {"T01", 8, 0, 256, 32, 0, 0, 1, -1, 49152, 1, 0, 0, 0, 0, 8, 0x03, {8,8,164,32,M,M}, 8192, 1024},
    {"T02", 8, 0, 128, 32, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 16, 0x03, {16,16,164,32,M,M}, 4096, 1024},
    {"T03", 8, 0, 256, 32, 49152, 0, 0, -1, 0, 0, 0, 0, 0, 0, 3, 0x04, {8,8,3,32,M,M}, 8192, 50176},
    {"T04", 8, 0, 256, 32, 0, 49152, 1, -1, 49152, 1, 0, 0, 0, 0, 3, 0x04, {8,8,3,32,M,M}, 8192, 50176},
    {"T05", 8, 6, 256, 32, 0, 49152, 1, -1, 49152, 1, 0, 0, 0, 0, 2, 0x04, {6,8,2,16,M,M}, 8192, 50176},
    {"T06", 9, 0, 256, 32, 0, 49152, 1, -1, 49152, 1, 0, 0, 0, 0, 4, 0x04, {8,8,4,32,64,M}, 8192, 50176},
    {"T07", 7, 0, 256, 32, 49152, 0, 0, -1, 0, 0, 0, 0, 0, 0, 2, 0x04, {8,8,2,32,M,M}, 8192, 49152},
    {"T08", 8, 0, 256, 32, 0, 40960, 1, -1, 166912, 1, 0, 0, 0, 0, 4, 0x04, {8,8,4,32,M,M}, 8192, 41984},
    {"T09", 8, 0, 256, 32, 0, 41984, 1, -1, 166912, 1, 0, 0, 0, 0, 3, 0x04, {8,8,3,32,M,M}, 8192, 43008},
    {"T10", 8, 0, 128, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0x04, {16,16,8,32,M,M}, 4096, 1024},
    {"T11", 8, 0, 256, 32, 0, 0, 0, -1, 0, 0, 2, 0, 0, 0, 8, 0x07, {8,8,8,32,M,M}, 8192, 1024},
    {"T12", 8, 0, 256, 32, 49152, 0, 0, 50, 0, 0, 0, 0, 0, 0, 2, 0x04, {8,8,2,32,M,M}, 8192, 50176},
    {"T13", 8, 0, 128, 32, 0, 16384, 0, 25, 0, 0, 0, 0, 0, 0, 3, 0x04, {16,16,3,32,M,M}, 4096, 17408},
    {"T14", 8, 0, 256, 32, 0, 102400, 1, -1, 166912, 1, 0, 0, 0, 0, 1, 0x04, {8,8,1,32,M,M}, 8192, 103424},
    {"T15", 8, 0, 256, 32, 0, 102400, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0x04, {8,8,0,32,M,M}, 8192, 103424},
    {"T16", 8, 0, 256, 32, 0, 50000, 1, -1, 49152, 1, 0, 0, 0, 0, 0, 0x04, {8,8,0,32,M,M}, 8192, 51072},
    {"T17", 9, 0, 128, 64, 0, 232448, 1, -1, 232448, 1, 0, 0, 0, 0, 1, 0x04, {16,8,1,32,64,M}, 8192, 233472},
    {"T18", 9, 0, 128, 64, 0, 233472, 1, -1, 233472, 1, 0, 0, 0, 0, 0, 0x04, {16,8,0,32,64,M}, 8192, 234496},
    {"T19", 7, 0, 128, 37, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 12, 0x02, {16,12,M,32,M,M}, 5120, 0},
    {"T20", 7, 0, 320, 37, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 4, 0x02, {6,4,M,32,M,M}, 12800, 0},
    {"T21", 8, 0, 224, 92, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 2, 0x02, {9,2,164,32,M,M}, 21504, 1024},
    {"T22", 8, 0, 1024, 64, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 1, 0x02, {2,1,164,32,M,M}, 65536, 1024},
    {"T23", 8, 0, 1024, 65, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0x02, {2,0,164,32,M,M}, 73728, 1024},
    {"T24", 8, 0, 256, 255, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 1, 0x02, {8,1,164,32,M,M}, 65536, 1024},
    {"T25", 8, 0, 32, 256, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 8, 0x02, {64,8,164,32,M,M}, 8192, 1024},
    {"T26", 6, 1, 32, 256, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0x02, {64,0,M,32,M,M}, 8192, 0},
    {"T27", 8, 6, 1024, 32, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 1, 0x01, {1,2,100,16,M,M}, 32768, 1024},
    {"T28", 8, 6, 768, 32, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 2, 0x03, {2,2,100,16,M,M}, 24576, 1024},
    {"T29", 8, 9, 64, 16, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 24, 0x09, {24,64,100,24,M,M}, 1024, 1024},
    {"T30", 8, 6, 64, 16, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 16, 0x08, {24,64,100,16,M,M}, 1024, 1024},
    {"T31", 7, 5, 256, 32, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 4, 0x01, {4,8,M,16,M,M}, 8192, 0},
    {"T32", 7, 5, 128, 32, 16384, 0, 0, -1, 0, 0, 0, 0, 0, 0, 4, 0x04, {8,16,4,16,M,M}, 4096, 16384},
    {"T33", 7, 5, 128, 32, 16384, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0x04, {8,16,2,16,M,M}, 4096, 16384},
    {"T34", 6, 0, 160, 40, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 10, 0x02, {12,10,M,32,M,M}, 6400, 0},
    {"T35", 6, 1, 160, 40, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 9, 0x02, {12,9,M,32,M,M}, 6400, 0},
    {"T36", 6, 0, 704, 88, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0x02, {2,0,M,32,M,M}, 61952, 0},
    {"T37", 6, 2, 416, 72, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0x02, {4,0,M,32,M,M}, 29952, 0},
    {"T38", 12, 0, 128, 32, 0, 0, 1, -1, 49152, 1, 0, 0, 0, 0, 12, 0x01, {12,16,100,24,24,M}, 4096, 1024},
    {"T39", 12, 0, 32, 32, 0, 0, 1, -1, 49152, 1, 0, 0, 0, 0, 24, 0x18, {48,64,100,24,24,M}, 1024, 1024},
    {"T40", 9, 0, 32, 32, 0, 0, 0, -1, 0, 3, 0, 0, 0, 0, 21, 0x18, {64,64,228,32,21,M}, 1024, 1024},
    {"T41", 10, 0, 32, 16, 0, 0, 0, -1, 0, 0, 0, 0, 5, 0, 25, 0x20, {64,128,228,32,M,25}, 512, 1024},
    {"T42", 5, 2, 384, 32, 0, 0, 0, -1, 0, 0, 0, 1, 0, 0, 4, 0x03, {4,4,M,32,M,M}, 12288, 0},
    {"T43", 5, 2, 1024, 64, 0, 0, 0, -1, 0, 0, 0, 1, 0, 0, 1, 0x02, {2,1,M,32,M,M}, 65536, 0},
    {"T44", 5, 2, 1024, 64, 0, 0, 0, -1, 0, 0, 0, 2, 0, 0, 0, 0x02, {2,0,M,32,M,M}, 65536, 0},
    {"T45", 8, 0, 1025, 32, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0x01, {0,1,164,32,M,M}, 33792, 1024},
    {"T46", 8, 0, 256, 32, 0, 0, 0, 101, 0, 0, 0, 0, 0, 1, 0, 0, {0}, 0, 0},
    {"T47", 4, 0, 256, 32, 0, 0, 0, -1, 0, 0, 0, 0, 0, 2, 0, 0, {0}, 0, 0},
    {"T48", 12, 2, 256, 32, 0, 0, 0, -1, 0, 0, 0, 0, 0, 2, 0, 0, {0}, 0, 0},
    {"X01", 8, 7, 256, 32, 0, 49152, 1, -1, 49152, 1, 0, 0, 0, 0, 3, 0x04, {6,8,3,16,M,M}, 8192, 50176},
    {"X02", 10, 3, 256, 32, 0, 49152, 1, -1, 49152, 1, 0, 0, 0, 0, 4, 0x04, {8,8,4,32,64,M}, 8192, 50176},
    {"X03", 9, 0, 256, 32, 0, 58368, 1, -1, 232448, 1, 0, 0, 0, 0, 3, 0x04, {8,8,3,32,64,M}, 8192, 59392},
    {"X04", 8, 0, 256, 32, 49152, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0x04, {8,8,1,32,M,M}, 8192, 50176},
    {"X05", 7, 0, 256, 32, 0, 65536, 1, -1, 98304, 1, 0, 0, 0, 0, 1, 0x04, {8,8,1,32,M,M}, 8192, 65536},
    {"X06", 7, 0, 256, 32, 0, 65536, 1, -1, 49152, 1, 0, 0, 0, 0, 0, 0x04, {8,8,0,32,M,M}, 8192, 65536},
    {"X07", 6, 2, 1024, 33, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0x02, {2,0,M,32,M,M}, 40960, 0},
    {"X08", 7, 5, 128, 32, 32768, 0, 0, -1, 0, 0, 0, 0, 0, 0, 2, 0x04, {8,16,2,16,M,M}, 4096, 32768},
    {"X09", 7, 5, 128, 32, 10000, 0, 0, -1, 0, 0, 0, 0, 0, 0, 6, 0x04, {8,16,6,16,M,M}, 4096, 10240},
    {"X10", 8, 6, 128, 32, 10000, 0, 0, -1, 0, 0, 0, 0, 0, 0, 9, 0x04, {12,16,9,16,M,M}, 4096, 11136},
    {"X11", 9, 0, 96, 40, 1000, 3000, 1, -1, 48152, 1, 0, 0, 0, 0, 16, 0x02, {21,16,45,32,64,M}, 3840, 5120},
    {"X12", 10, 0, 512, 64, 0, 65536, 1, -1, 232448, 1, 0, 0, 0, 0, 2, 0x02, {4,2,3,32,64,M}, 32768, 66560},
    {"X13", 12, 0, 256, 32, 0, 32768, 1, -1, 49152, 1, 0, 0, 0, 0, 3, 0x04, {6,8,3,24,24,M}, 8192, 33792},
    {"X14", 11, 0, 64, 16, 0, 0, 1, -1, 49152, 1, 0, 0, 0, 0, 24, 0x19, {24,64,228,24,24,M}, 1024, 1024},
    {"X15", 12, 1, 768, 40, 0, 0, 1, -1, 49152, 1, 0, 0, 0, 0, 2, 0x03, {2,2,100,24,24,M}, 30720, 1024},
    {"X16", 5, 2, 384, 32, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 5, 0x03, {5,5,M,32,M,M}, 12288, 0},
    {"X17", 5, 2, 128, 85, 0, 0, 0, -1, 0, 0, 0, 1, 0, 0, 4, 0x02, {16,4,M,32,M,M}, 11264, 0},
    {"X18", 5, 2, 128, 85, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 5, 0x02, {16,5,M,32,M,M}, 11264, 0},
    {"X19", 3, 5, 128, 32, 12288, 0, 0, -1, 0, 0, 2, 0, 0, 0, 1, 0x04, {16,16,1,16,M,M}, 4096, 12288},
    {"X20", 3, 5, 128, 32, 24576, 0, 0, -1, 0, 0, 2, 0, 0, 0, 2, 0x04, {16,16,2,16,M,M}, 4096, 24576},
    {"X21", 8, 0, 100, 32, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 16, 0x03, {16,16,164,32,M,M}, 4096, 1024},
    {"X22", 7, 0, 32, 0, 0, 0, 0, -1, 0, 0, 0, 0, 0, 0, 32, 0x08, {64,M,M,32,M,M}, 0, 0},
    {"X23", 8, 0, 256, 32, 0, 0, 0, -1, 0, 0, 1, 0, 0, 0, 8, 0x03, {8,8,164,32,M,M}, 8192, 1024},
    {"X24", 8, 0, 0, 32, 0, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, {0}, 0, 0},
};

static cc_occ_device device_for(int major, int minor)
{
    char name[16];
    snprintf(name, sizeof name, "%d.%d", major, minor);
    const cc_occ_preset *p = cc_occ_preset_find(name);
    cc_occ_device d = p ? p->dev : cc_occ_preset_find("sm_90")->dev;
    d.major = major; /* 4.0 and 12.2 exist only to trigger errors */
    d.minor = minor;
    return d;
}

static void check_vector(const vec *v)
{
    cc_occ_device d = device_for(v->major, v->minor);
    cc_occ_func f = {1024, v->regs, v->static_smem, (cc_occ_gc)v->gc,
                     v->optin ? CC_OCC_SMEM_LIMIT_OPTIN : CC_OCC_SMEM_LIMIT_DEFAULT, v->max_dyn,
                     v->barriers, v->vrc};
    cc_occ_state s = {(cc_occ_cache)v->cache, v->carveout};
    cc_occ_result r;
    int st = (int)cc_occ_max_active_blocks(&r, &d, &f, &s, v->threads, v->dyn);
    if (st != v->err) {
        fprintf(stderr, "%s: status %d, expected %d\n", v->id, st, v->err);
        cc_test_failures++;
        return;
    }
    if (st) return;
    int got[6] = {r.lim_warps, r.lim_regs, r.lim_smem, r.lim_blocks, r.lim_barriers, r.lim_virtual};
    int ok = r.blocks_per_sm == v->blocks && r.limiting == v->factors &&
             r.alloc_regs_per_block == v->alloc_regs && r.alloc_smem_per_block == v->alloc_smem &&
             memcmp(got, v->lim, sizeof got) == 0;
    if (!ok) {
        fprintf(stderr, "%s: blocks %d factors 0x%02x limits %d/%d/%d/%d/%d/%d alloc %d/%zu\n",
                v->id, r.blocks_per_sm, r.limiting, got[0], got[1], got[2], got[3], got[4], got[5],
                r.alloc_regs_per_block, r.alloc_smem_per_block);
        cc_test_failures++;
    }
}

static size_t dyn_256_per_thread(int bs, void *ctx)
{
    (void)ctx;
    return (size_t)bs * 256;
}

static void check_potential(const char *id, const char *arch, int regs, int carveout,
                            int func_max_threads, int use_cb, int want_bs, int want_grid)
{
    cc_occ_device d = cc_occ_preset_find(arch)->dev;
    cc_occ_func f = {func_max_threads, regs, 0, CC_OCC_GC_OFF, CC_OCC_SMEM_LIMIT_DEFAULT, 0, 0, 0};
    cc_occ_state s = {CC_OCC_CACHE_NONE, carveout};
    int grid = -1, bs = -1;
    int st = (int)cc_occ_max_potential_block_size(&grid, &bs, &d, &f, &s,
                                                  use_cb ? dyn_256_per_thread : NULL, NULL, 0);
    if (st || bs != want_bs || grid != want_grid) {
        fprintf(stderr, "%s: status %d block %d grid %d (want %d, %d)\n", id, st, bs, grid, want_bs,
                want_grid);
        cc_test_failures++;
    }
}

static void check_available(const char *id, const char *arch, int optin, size_t max_dyn,
                            int carveout, int blocks, int want_err, size_t want)
{
    cc_occ_device d = cc_occ_preset_find(arch)->dev;
    cc_occ_func f = {1024, 32, 0, CC_OCC_GC_OFF,
                     optin ? CC_OCC_SMEM_LIMIT_OPTIN : CC_OCC_SMEM_LIMIT_DEFAULT, max_dyn,
                     optin ? 1 : 0, 0};
    cc_occ_state s = {CC_OCC_CACHE_NONE, carveout};
    size_t got = 0;
    int st = (int)cc_occ_available_dyn_smem(&got, &d, &f, &s, blocks, 256);
    if (st != want_err || (!st && got != want)) {
        fprintf(stderr, "%s: status %d bytes %zu (want %d, %zu)\n", id, st, got, want_err, want);
        cc_test_failures++;
    }
}

int main(void)
{
    size_t n = sizeof vectors / sizeof vectors[0];
    CHECK(n == 72);
    for (size_t i = 0; i < n; i++) check_vector(&vectors[i]);

    check_potential("P1", "sm_80", 32, -1, 1024, 0, 1024, 216);
    check_potential("P2", "sm_86", 32, -1, 1024, 0, 768, 164);
    check_potential("P3", "sm_70", 37, -1, 1024, 0, 768, 160);
    check_potential("P4", "sm_80", 32, -1, 1024, 1, 160, 432);
    check_potential("P5", "sm_80", 255, -1, 1024, 0, 256, 108);
    check_potential("P6", "sm_80", 32, 0, 1024, 0, 1024, 216);
    check_potential("P7", "sm_80", 32, -1, 1000, 0, 512, 432);
    check_potential("P8", "sm_80", 300, -1, 1024, 0, 0, 0);

    check_available("A1", "sm_80", 1, 166912, -1, 1, 0, 166912);
    check_available("A2", "sm_80", 1, 49152, -1, 2, 0, 49152);
    check_available("A3", "sm_80", 0, 0, -1, 2, 0, 0);
    check_available("A4", "sm_80", 1, 166912, -1, 4, 0, 41984);
    check_available("A5", "sm_80", 1, 166912, 0, 2, 0, 4096);
    check_available("A6", "sm_90", 1, 232448, -1, 1, 0, 232448);
    check_available("A7", "sm_80", 1, 166912, -1, 9, 1, 0);

    /* preset lookup */
    CHECK(cc_occ_preset_find("sm_90a") == cc_occ_preset_find("9.0"));
    CHECK(cc_occ_preset_find("compute_120") == cc_occ_preset_find("sm_120"));
    CHECK(cc_occ_preset_find("A100") == cc_occ_preset_find("sm_80"));
    CHECK(cc_occ_preset_find("H200") == cc_occ_preset_find("90"));
    CHECK(cc_occ_preset_find("sm_99") == NULL);
    CHECK(cc_occ_preset_find("sm_") == NULL);
    CHECK(cc_occ_preset_find("") == NULL);
    static const char *must[] = {"sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90",
                                 "sm_100", "sm_103", "sm_110", "sm_120", "sm_121"};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
        const cc_occ_preset *p = cc_occ_preset_find(must[i]);
        CHECK(p != NULL);
        if (p) {
            int g;
            CHECK(cc_occ_smem_granularity(&p->dev, &g) == CC_OCC_OK);
            CHECK(p->dev.smem_per_block_optin + p->dev.reserved_smem_per_block <= p->dev.smem_per_sm);
            CHECK(p->source && p->source[0]);
        }
    }
    TEST_MAIN_END();
}
