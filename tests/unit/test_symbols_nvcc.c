/* The cubin readers against real nvcc output, compiled at test time into the build directory:
 * registers, static shared memory and stack frame of every kernel must equal what
 * `nvcc -Xptxas -v` prints for the same build (sm_80, sm_90, sm_100, sm_120); launch bounds,
 * register caps and cluster dims must be found; and in a -lineinfo cubin the store instruction
 * of a kernel must map to the source line that holds the store; code inlined from a toolkit
 * header (__syncwarp()) must map to the user's line that calls it, and code of a user's
 * __forceinline__ helper to the helper's own line. Without nvcc on PATH the test prints
 * "skipped" and passes (the CLI test tests/cli/inspect_nvcc.sh covers the same ground). */
#include "check.h"
#include "test_files.h"
#include "symbols/cubin.h"
#include "symbols/elf.h"
#include "symbols/lines.h"
#include "symbols/toolkit_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kernels_cu =
    "__global__ void __launch_bounds__(256, 4) lb_kernel(float *out, const float *in, int n) {\n"
    "    __shared__ float tile[1024];\n"
    "    int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    tile[threadIdx.x] = in[i];\n"
    "    __syncthreads();\n"
    "    if (i < n) out[i] = tile[(threadIdx.x + 1) % 256] * 2.0f;\n"
    "}\n"
    "extern \"C\" __global__ void store_kernel(int *p, int v) {\n"
    "    int t = threadIdx.x;\n"
    "    p[t] = v; // STORE_LINE\n"
    "}\n"
    "__global__ void stack_kernel(double *p, double v) {\n"
    "    volatile double local[64];\n"
    "    for (int j = 0; j < 64; ++j) local[j] = v + j;\n"
    "    p[threadIdx.x] = local[threadIdx.x % 64];\n"
    "}\n"
    "__global__ void __maxnreg__(40) capped(float *p) { p[threadIdx.x] *= 2.0f; }\n"
    "__global__ void shuffled(int *p) { p[threadIdx.x] = __shfl_down_sync(0xffffffffu, p[threadIdx.x], 1); }\n"
    "__global__ void small_smem(float *p) {\n"
    "    __shared__ float s[10];\n"
    "    s[threadIdx.x % 10] = p[threadIdx.x]; __syncthreads(); p[threadIdx.x] = s[0];\n"
    "}\n"
    "#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 || !defined(__CUDA_ARCH__)\n"
    "__global__ void __launch_bounds__(128, 2, 4) clustered(float *p) { p[threadIdx.x] += 1; }\n"
    "__global__ void __cluster_dims__(2, 1, 1) with_cluster(float *p) { p[threadIdx.x] = 1; }\n"
    "#endif\n";

static int store_line = 10;

static const char *inline_cu =
    "__device__ __forceinline__ int inl_helper(int *p, int v) {\n"
    "    p[v] = v + 1; // HELPER_STORE_LINE\n"
    "    return v * 3;\n"
    "}\n"
    "extern \"C\" __global__ void inl_sync(int *p, int n) {\n"
    "    int t = threadIdx.x;\n"
    "    p[t] = n;\n"
    "    __syncwarp(); // SYNC_LINE\n"
    "    p[t + 1] = 2;\n"
    "}\n"
    "extern \"C\" __global__ void inl_user(int *p, int v) {\n"
    "    int t = threadIdx.x;\n"
    "    p[t + 64] = inl_helper(p, v + t); // CALL_LINE\n"
    "}\n";

enum { HELPER_STORE_LINE = 2, SYNC_LINE = 8, CALL_LINE = 13 };

/* ptxas -v facts for one kernel. */
typedef struct ptxas_k {
    char name[128];
    unsigned regs, smem, stack;
} ptxas_k;

static int parse_ptxas(const char *log, ptxas_k *ks, int max)
{
    int n = 0;
    const char *p = log;
    while ((p = strstr(p, "Compiling entry function '")) && n < max) {
        p += strlen("Compiling entry function '");
        const char *q = strchr(p, '\'');
        if (!q)
            break;
        memset(&ks[n], 0, sizeof ks[n]);
        snprintf(ks[n].name, sizeof ks[n].name, "%.*s", (int)(q - p), p);
        const char *next = strstr(q, "Compiling entry function '");
        const char *u = strstr(q, "Used ");
        if (u && (!next || u < next))
            sscanf(u, "Used %u registers", &ks[n].regs);
        const char *sm = strstr(q, " bytes smem");
        if (sm && (!next || sm < next)) {
            const char *b = sm;
            while (b > q && b[-1] >= '0' && b[-1] <= '9')
                b--;
            ks[n].smem = (unsigned)strtoul(b, NULL, 10);
        }
        const char *sf = strstr(q, " bytes stack frame");
        if (sf && (!next || sf < next)) {
            const char *b = sf;
            while (b > q && b[-1] >= '0' && b[-1] <= '9')
                b--;
            ks[n].stack = (unsigned)strtoul(b, NULL, 10);
        }
        n++;
        p = q;
    }
    return n;
}

typedef struct kcollect {
    int n;
    cc_kernel_info k[16];
} kcollect;

static int collect(const cc_kernel_info *k, void *user)
{
    kcollect *c = user;
    if (c->n < 16)
        c->k[c->n++] = *k;
    return 0;
}

static const cc_kernel_info *find(const kcollect *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->k[i].name, name) == 0)
            return &c->k[i];
    return NULL;
}

static void check_arch(const char *dir, const char *cu, const char *arch, unsigned sm)
{
    char cmd[4200], cubin[1024], log[1024];
    snprintf(cubin, sizeof cubin, "%s/symk_%s.cubin", dir, arch);
    snprintf(log, sizeof log, "%s/symk_%s.log", dir, arch);
    snprintf(cmd, sizeof cmd, "nvcc -cubin -arch=%s -Xptxas -v -o '%s' '%s' 2> '%s'", arch, cubin,
             cu, log);
    if (system(cmd) != 0) {
        fprintf(stderr, "nvcc failed for %s\n", arch);
        CHECK(0);
        return;
    }
    size_t cl, ll;
    char *data = cc_test_read_file(cubin, &cl), *text = cc_test_read_file(log, &ll);
    CHECK(data && text);
    if (!data || !text) {
        free(data);
        free(text);
        return;
    }
    ptxas_k pk[16];
    int np = parse_ptxas(text, pk, 16);
    kcollect kc = {0};
    char err[160];
    cc_cubin_info ci;
    CHECK(cc_cubin_inspect(data, cl, &ci, err, sizeof err) == 0);
    CHECK_EQ_U64(ci.arch, sm);
    CHECK(cc_cubin_kernels(data, cl, collect, &kc, err, sizeof err) == np);
    CHECK(np >= (sm >= 90 ? 7 : 5));
    for (int i = 0; i < np; i++) {
        const cc_kernel_info *k = find(&kc, pk[i].name);
        CHECK(k != NULL);
        if (!k)
            continue;
        if (k->regs != pk[i].regs || k->static_smem != pk[i].smem ||
            k->local_bytes != pk[i].stack)
            fprintf(stderr, "%s %s: parsed regs %u smem %u stack %u, ptxas %u %u %u\n", arch,
                    pk[i].name, k->regs, k->static_smem, k->local_bytes, pk[i].regs, pk[i].smem,
                    pk[i].stack);
        CHECK(k->has_regs);
        CHECK_EQ_U64(k->regs, pk[i].regs);
        CHECK_EQ_U64(k->static_smem, pk[i].smem);
        CHECK_EQ_U64(k->local_bytes, pk[i].stack);
    }
    const cc_kernel_info *lb = find(&kc, "_Z9lb_kernelPfPKfi");
    CHECK(lb && lb->max_threads[0] == 256 && lb->max_threads[1] == 1 && lb->max_regs == 64);
    CHECK(lb && lb->static_smem == 4096 && lb->barriers == 1 && lb->param_bytes == 20);
    const cc_kernel_info *cap = find(&kc, "_Z6cappedPf");
    CHECK(cap && cap->max_regs == 40);
    /* A plain shuffle marks warp-synchronous instructions; a kernel without any has none. */
    const cc_kernel_info *sh = find(&kc, "_Z8shuffledPi");
    CHECK(sh && sh->warp_sync_ops && sh->barriers == 0);
    CHECK(cap && !cap->warp_sync_ops && cap->barriers == 0);
    const cc_kernel_info *st = find(&kc, "_Z12stack_kernelPdd");
    CHECK(st && st->local_bytes == 512);
    if (sm >= 90) {
        const cc_kernel_info *cl4 = find(&kc, "_Z9clusteredPf");
        CHECK(cl4 && cl4->max_cluster_rank == 4 && cl4->max_threads[0] == 128);
        const cc_kernel_info *wc = find(&kc, "_Z12with_clusterPf");
        CHECK(wc && wc->cluster_dims[0] == 2 && wc->cluster_dims[1] == 1 && wc->explicit_cluster);
    }
    free(data);
    free(text);
}

/* Offsets of up to max instructions of a sm_90 kernel's .text whose low 12 opcode bits are one
 * of ops (zero-terminated); the count found. */
static int find_ops(const char *cubin, size_t size, const char *kernel, const unsigned *ops,
                    long *out, int max)
{
    cc_elf elf;
    cc_elf_section s;
    char err[160], name[256];
    int n = 0;
    snprintf(name, sizeof name, ".text.%s", kernel);
    if (cc_elf_open(&elf, cubin, size, err, sizeof err) != 0 ||
        cc_elf_section_by_name(&elf, name, &s) != 0 || !s.data)
        return 0;
    for (uint64_t off = 0; off + 16 <= s.size && n < max; off += 16) {
        unsigned op = cc_le16(s.data + off) & 0xfff;
        for (const unsigned *o = ops; *o; o++)
            if (op == *o)
                out[n++] = (long)off;
    }
    return n;
}

/* Offset of the first global store (STG: opcode 0x986 or 0x386 in the low 12 bits) of a
 * sm_90 kernel's .text, or -1. */
static long find_store(const char *cubin, size_t size, const char *kernel)
{
    cc_elf elf;
    cc_elf_section s;
    char err[160], name[256];
    snprintf(name, sizeof name, ".text.%s", kernel);
    if (cc_elf_open(&elf, cubin, size, err, sizeof err) != 0 ||
        cc_elf_section_by_name(&elf, name, &s) != 0 || !s.data)
        return -1;
    for (uint64_t off = 0; off + 16 <= s.size; off += 16) {
        unsigned op = cc_le16(s.data + off) & 0xfff;
        if (op == 0x986 || op == 0x386)
            return (long)off;
    }
    return -1;
}

static void check_lines(const char *dir, const char *cu)
{
    char cmd[4200], cubin[1024];
    snprintf(cubin, sizeof cubin, "%s/symk_line.cubin", dir);
    snprintf(cmd, sizeof cmd, "nvcc -cubin -arch=sm_90 -lineinfo -o '%s' '%s'", cubin, cu);
    CHECK(system(cmd) == 0);
    size_t n;
    char *data = cc_test_read_file(cubin, &n);
    CHECK(data != NULL);
    if (!data)
        return;
    cc_cubin_info ci;
    char err[160];
    CHECK(cc_cubin_inspect(data, n, &ci, err, sizeof err) == 0);
    CHECK(ci.has_line_info && ci.has_ptx_line_info);
    long pc = find_store(data, n, "store_kernel");
    CHECK(pc >= 0);
    const char *file = NULL;
    uint32_t line = 0;
    CHECK(cc_sym_line_lookup(data, n, "store_kernel", (uint64_t)pc, &file, &line) == 1);
    CHECK_EQ_U64(line, store_line);
    CHECK(file && strstr(file, "symk.cu") != NULL);
    /* Every row of store_kernel lies within its source lines (8..11). */
    cc_line_table *t = cc_line_table_open(data, n, CC_LINES_SOURCE, err, sizeof err);
    CHECK(t != NULL);
    int rows = 0;
    for (size_t i = 0; i < cc_line_table_count(t); i++) {
        const cc_line_row *r = cc_line_table_row(t, i);
        CHECK(r->kernel != NULL);
        if (r->kernel && strcmp(r->kernel, "store_kernel") == 0) {
            rows++;
            CHECK(r->line >= 8 && r->line <= 11);
        }
    }
    CHECK(rows > 0);
    CHECK(cc_line_table_lookup(t, "store_kernel", 1u << 30, NULL) == 0);
    CHECK(cc_line_table_lookup(t, "no_such_kernel", 0, NULL) == 0);
    cc_line_table_free(t);
    /* PTX lines: the table exists and attributes rows to kernels. */
    t = cc_line_table_open(data, n, CC_LINES_PTX, err, sizeof err);
    CHECK(t && cc_line_table_count(t) > 0);
    const cc_line_row *pr = NULL;
    CHECK(t && cc_line_table_lookup(t, "store_kernel", (uint64_t)pc, &pr) == 1 && pr->line > 0);
    cc_line_table_free(t);
    free(data);
    /* Without -lineinfo there is no table, and the lookup says so. */
    snprintf(cubin, sizeof cubin, "%s/symk_sm_90.cubin", dir);
    data = cc_test_read_file(cubin, &n);
    if (data) {
        CHECK(cc_sym_line_lookup(data, n, "store_kernel", (uint64_t)pc, &file, &line) == -1);
        free(data);
    }
}

/* __syncwarp() (sm_30_intrinsics.hpp, inlined) reports the line that calls it. On sm_90 nvcc
 * emits it as the kernel's first NOP (opcode 0x918); the alignment NOPs follow its EXIT. */
static void check_inlined_sync(const char *data, size_t n, const cc_line_table *t)
{
    static const unsigned nop[] = {0x918, 0};
    long pc;
    CHECK(find_ops(data, n, "inl_sync", nop, &pc, 1) == 1);
    const cc_line_row *r = NULL;
    CHECK(cc_line_table_lookup(t, "inl_sync", (uint64_t)pc, &r) == 1);
    if (!r)
        return;
    CHECK_EQ_U64(r->line, SYNC_LINE);
    CHECK(r->file && strstr(r->file, "symk_inl.cu") != NULL);
    CHECK(r->inlined_file && strstr(r->inlined_file, "sm_30_intrinsics") != NULL);
    CHECK(r->inlined_line > 0 && r->inline_depth >= 1);
    CHECK(cc_toolkit_header(r->inlined_dir, r->inlined_file));
    CHECK(!cc_toolkit_header(r->dir, r->file));
    /* No row of the kernel reports a toolkit header. */
    for (size_t i = 0; i < cc_line_table_count(t); i++) {
        const cc_line_row *q = cc_line_table_row(t, i);
        if (q->kernel && strcmp(q->kernel, "inl_sync") == 0)
            CHECK(q->line >= 5 && q->line <= 10 && !cc_toolkit_header(q->dir, q->file));
    }
}

/* A user's __forceinline__ helper keeps its own line (the innermost frame, a user one). */
static void check_inlined_helper(const char *data, size_t n, const cc_line_table *t)
{
    static const unsigned stg[] = {0x986, 0x386, 0};
    long pcs[8];
    int nst = find_ops(data, n, "inl_user", stg, pcs, 8), helper = 0, call = 0;
    CHECK(nst >= 2);
    for (int i = 0; i < nst; i++) {
        const cc_line_row *r = NULL;
        CHECK(cc_line_table_lookup(t, "inl_user", (uint64_t)pcs[i], &r) == 1);
        if (!r)
            continue;
        if (r->line == HELPER_STORE_LINE) {
            helper++;
            CHECK(r->inline_depth >= 1 && r->inlined_file == NULL && r->inlined_line == 0);
        } else if (r->line == CALL_LINE) {
            call++;
        }
    }
    CHECK(helper == 1 && call == 1);
}

static void check_inlined(const char *dir)
{
    char cmd[4200], cu[1024], cubin[1024];
    snprintf(cu, sizeof cu, "%s/symk_inl.cu", dir);
    snprintf(cubin, sizeof cubin, "%s/symk_inl.cubin", dir);
    CHECK(cc_test_write_file(cu, inline_cu) == 0);
    snprintf(cmd, sizeof cmd, "nvcc -cubin -O2 -arch=sm_90 -lineinfo -o '%s' '%s'", cubin, cu);
    CHECK(system(cmd) == 0);
    size_t n;
    char *data = cc_test_read_file(cubin, &n), err[160];
    CHECK(data != NULL);
    if (!data)
        return;
    cc_line_table *t = cc_line_table_open(data, n, CC_LINES_SOURCE, err, sizeof err);
    CHECK(t != NULL);
    if (t) {
        check_inlined_sync(data, n, t);
        check_inlined_helper(data, n, t);
    }
    cc_line_table_free(t);
    free(data);
}

int main(void)
{
    if (!cc_test_have_nvcc()) {
        printf("skipped: nvcc not found\n");
        return 0;
    }
    const char *dir = CC_TEST_BINARY_DIR;
    char cu[1024];
    snprintf(cu, sizeof cu, "%s/symk.cu", dir);
    int written = cc_test_write_file(cu, kernels_cu);
    CHECK(written == 0);
    if (written != 0)
        TEST_MAIN_END();
    check_arch(dir, cu, "sm_80", 80);
    check_arch(dir, cu, "sm_90", 90);
    check_arch(dir, cu, "sm_100", 100);
    check_arch(dir, cu, "sm_120", 120);
    check_lines(dir, cu);
    check_inlined(dir);
    TEST_MAIN_END();
}
