/* Device presets per architecture (occupancy_spec.md section 5.2).
 * Value sources:
 *  - sm_60 .. sm_121: NVIDIA CCCL libcudacxx/include/cuda/__device/arch_traits.h (threads, registers,
 *    shared memory per SM / per block / opt-in = SM - reserved, reserved 1 KiB from sm_80 on,
 *    32 K registers per block on sm_53/sm_62), cross-checked with the CUDA C++ Programming Guide
 *    table "Technical Specifications per Compute Capability".
 *  - sm_35 .. sm_53: the Programming Guide tables as carried by the Excel occupancy-calculator ports.
 *  - SM counts: the named part's data sheet; they only affect min grid size and waves. sm_103's
 *    SM count is assumed equal to B200's; use --gpu N for the real number.
 * Warp size 32, 1024 threads and 48 KiB per block everywhere. */
#include "occupancy/occ_presets.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRC_CCCL "CCCL arch_traits.h; CUDA Programming Guide compute-capability table"
#define SRC_GUIDE "CUDA Programming Guide compute-capability table (Excel calculator data)"

/* major, minor, threads/SM, regs/SM, regs/block, smem/SM, opt-in/block, reserved/block, SMs */
#define DEV(ma, mi, thr, rsm, rblk, ssm, optin, resv, sms) \
    {ma, mi, 1024, thr, rblk, rsm, 32, 49152, ssm, sms, optin, resv}

typedef struct {
    cc_occ_preset p;
    const char *aliases; /* comma-separated part names */
} preset_row;

static const preset_row rows[] = {
    {{"sm_35", "Tesla K20", SRC_GUIDE, DEV(3, 5, 2048, 65536, 65536, 49152, 49152, 0, 13)}, "k20,k40"},
    {{"sm_37", "Tesla K80 (one die)", SRC_GUIDE, DEV(3, 7, 2048, 131072, 65536, 114688, 49152, 0, 13)}, "k80"},
    {{"sm_50", "GeForce GTX 750 Ti", SRC_GUIDE, DEV(5, 0, 2048, 65536, 65536, 65536, 49152, 0, 5)}, "gtx750ti"},
    {{"sm_52", "GeForce GTX 980", SRC_GUIDE, DEV(5, 2, 2048, 65536, 65536, 98304, 49152, 0, 16)}, "gtx980,m40"},
    {{"sm_53", "Jetson TX1", SRC_GUIDE, DEV(5, 3, 2048, 65536, 32768, 65536, 49152, 0, 2)}, "tx1"},
    {{"sm_60", "Tesla P100", SRC_CCCL, DEV(6, 0, 2048, 65536, 65536, 65536, 49152, 0, 56)}, "p100"},
    {{"sm_61", "GeForce GTX 1080", SRC_CCCL, DEV(6, 1, 2048, 65536, 65536, 98304, 49152, 0, 20)}, "gtx1080,p40"},
    {{"sm_62", "Jetson TX2", SRC_CCCL, DEV(6, 2, 2048, 65536, 32768, 65536, 49152, 0, 2)}, "tx2"},
    {{"sm_70", "Tesla V100", SRC_CCCL, DEV(7, 0, 2048, 65536, 65536, 98304, 98304, 0, 80)}, "v100"},
    {{"sm_72", "Jetson AGX Xavier", SRC_CCCL, DEV(7, 2, 2048, 65536, 65536, 98304, 98304, 0, 8)}, "xavier"},
    {{"sm_75", "Tesla T4", SRC_CCCL, DEV(7, 5, 1024, 65536, 65536, 65536, 65536, 0, 40)}, "t4,rtx2080"},
    {{"sm_80", "A100 SXM", SRC_CCCL, DEV(8, 0, 2048, 65536, 65536, 167936, 166912, 1024, 108)}, "a100"},
    {{"sm_86", "GeForce RTX 3090", SRC_CCCL, DEV(8, 6, 1536, 65536, 65536, 102400, 101376, 1024, 82)}, "rtx3090,a10,a40"},
    {{"sm_87", "Jetson AGX Orin", SRC_CCCL, DEV(8, 7, 1536, 65536, 65536, 167936, 166912, 1024, 16)}, "orin"},
    {{"sm_89", "GeForce RTX 4090", SRC_CCCL, DEV(8, 9, 1536, 65536, 65536, 102400, 101376, 1024, 128)}, "rtx4090,l4,l40"},
    {{"sm_90", "H100 SXM / H200", SRC_CCCL, DEV(9, 0, 2048, 65536, 65536, 233472, 232448, 1024, 132)}, "h100,h200,gh200"},
    {{"sm_100", "B200", SRC_CCCL, DEV(10, 0, 2048, 65536, 65536, 233472, 232448, 1024, 148)}, "b200,gb200"},
    {{"sm_101", "Jetson Thor (CUDA 12 numbering)", SRC_CCCL, DEV(10, 1, 1536, 65536, 65536, 233472, 232448, 1024, 20)}, ""},
    {{"sm_103", "B300 (SM count assumed = B200)", SRC_CCCL, DEV(10, 3, 2048, 65536, 65536, 233472, 232448, 1024, 148)}, "b300,gb300"},
    {{"sm_110", "Jetson Thor", SRC_CCCL, DEV(11, 0, 1536, 65536, 65536, 233472, 232448, 1024, 20)}, "thor"},
    {{"sm_120", "GeForce RTX 5090", SRC_CCCL, DEV(12, 0, 1536, 65536, 65536, 102400, 101376, 1024, 170)}, "rtx5090"},
    {{"sm_121", "DGX Spark GB10", SRC_CCCL, DEV(12, 1, 1536, 65536, 65536, 102400, 101376, 1024, 48)}, "gb10"},
};

#define NROWS ((int)(sizeof(rows) / sizeof(rows[0])))

int cc_occ_preset_count(void) { return NROWS; }

const cc_occ_preset *cc_occ_preset_at(int i)
{
    return (i >= 0 && i < NROWS) ? &rows[i].p : NULL;
}

/* Lower-case alphanumerics only: "A100 SXM" -> "a100sxm". */
static void squash(const char *in, char *out, size_t cap)
{
    size_t n = 0;
    for (; *in && n + 1 < cap; in++)
        if (isalnum((unsigned char)*in)) out[n++] = (char)tolower((unsigned char)*in);
    out[n] = 0;
}

static const cc_occ_preset *find_cc(int major, int minor)
{
    for (int i = 0; i < NROWS; i++)
        if (rows[i].p.dev.major == major && rows[i].p.dev.minor == minor) return &rows[i].p;
    return NULL;
}

/* "80", "90a", "100f", "8.0", "12.1" -> major/minor; 0 if not numeric. */
static int parse_cc(const char *s, int *major, int *minor)
{
    char *end;
    if (!isdigit((unsigned char)*s)) return 0;
    long a = strtol(s, &end, 10);
    if (*end == '.') {
        const char *m = end + 1;
        if (!isdigit((unsigned char)*m)) return 0;
        long b = strtol(m, &end, 10);
        if (*end || a > 99 || b > 9) return 0;
        *major = (int)a;
        *minor = (int)b;
        return 1;
    }
    if ((*end == 'a' || *end == 'f') && end[1] == 0) end++;
    if (*end || a < 10 || a > 999) return 0;
    *major = (int)(a / 10);
    *minor = (int)(a % 10);
    return 1;
}

const cc_occ_preset *cc_occ_preset_find(const char *name)
{
    if (!name || !*name || strlen(name) > 64) return NULL;
    char low[80];
    size_t n = 0;
    for (const char *p = name; *p && n + 1 < sizeof low; p++) low[n++] = (char)tolower((unsigned char)*p);
    low[n] = 0;
    const char *num = low;
    if (strncmp(low, "sm_", 3) == 0) num = low + 3;
    else if (strncmp(low, "compute_", 8) == 0) num = low + 8;
    else if (strncmp(low, "sm", 2) == 0 && isdigit((unsigned char)low[2])) num = low + 2;
    int major, minor;
    if (parse_cc(num, &major, &minor)) return find_cc(major, minor);

    char want[80], have[80];
    squash(low, want, sizeof want);
    if (!*want) return NULL;
    for (int i = 0; i < NROWS; i++) {
        const char *a = rows[i].aliases;
        while (a && *a) {
            const char *comma = strchr(a, ',');
            size_t len = comma ? (size_t)(comma - a) : strlen(a);
            if (len == strlen(want) && strncmp(a, want, len) == 0) return &rows[i].p;
            a = comma ? comma + 1 : NULL;
        }
        squash(rows[i].p.part, have, sizeof have);
        if (strcmp(have, want) == 0) return &rows[i].p;
    }
    return NULL;
}

const char *cc_occ_preset_names(void)
{
    static char buf[512];
    if (!buf[0]) {
        size_t n = 0;
        for (int i = 0; i < NROWS && n + 16 < sizeof buf; i++)
            n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s", i ? ", " : "", rows[i].p.arch);
    }
    return buf;
}
