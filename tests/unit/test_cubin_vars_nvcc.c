/* The module-variable reader (symbols/modvars.h) against cubins nvcc compiles at test time for
 * sm_75, sm_90 and sm_120, whole-program and relocatable (-rdc=true, then linked by nvlink into
 * the executable cubin a module loads): every kind of variable a program declares
 * (`__device__` scalars and arrays, with and without an initializer, `__device__ const`,
 * `__constant__`, `__managed__`, file-scope static, namespaced, anonymous-namespace, template and
 * function-local static variables) is listed once with its size, section and flags, under the
 * name cuModuleGetGlobal takes and with the name the program wrote; shared variables and kernels
 * are not. Without nvcc the test prints "skipped". */
#include "check.h"
#include "test_files.h"
#include "symbols/modvars.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *vars_cu =
    "__device__ int flag;\n"
    "__device__ int table[256];\n"
    "__device__ float inited[4] = {1, 2, 3, 4};\n"
    "__device__ const int dconst[3] = {1, 2, 3};\n"
    "__constant__ int coeffs[16];\n"
    "__constant__ double cinit[2] = {1.0, 2.0};\n"
    "__managed__ int counter;\n"
    "static __device__ int hidden;\n"
    "namespace ns { namespace deeper { __device__ char buf[100]; } }\n"
    "namespace { __device__ int anon_var[2]; }\n"
    "template <typename T> __device__ T tvar;\n"
    "template __device__ int tvar<int>;\n"
    "__device__ int bump(int i) { static __device__ int local_counter; return local_counter += i; }\n"
    "__shared__ int file_shared[32];\n"
    "__global__ void k(int *p, int i) {\n"
    "    file_shared[threadIdx.x & 31] = i;\n"
    "    __syncthreads();\n"
    "    flag = 1;\n"
    "    table[i & 255] = coeffs[i & 15] + hidden + dconst[i % 3] + anon_var[i & 1];\n"
    "    counter += (int)(inited[0] + cinit[1]) + ns::deeper::buf[3] + tvar<int>;\n"
    "    p[0] = bump(i) + file_shared[(i + 1) & 31];\n"
    "}\n";

typedef struct expect {
    const char *shown;   /* display name */
    uint64_t size;
    uint32_t flags;
    const char *section;
} expect;

static const expect expected[] = {
    {"flag", 4, 0, ".nv.global"},
    {"table", 1024, 0, ".nv.global"},
    {"inited", 16, 0, ".nv.global.init"},
    {"dconst", 12, 0, ".nv.global.init"},
    {"coeffs", 64, CC_CUBIN_VAR_CONSTANT, ".nv.constant3"},
    {"cinit", 16, CC_CUBIN_VAR_CONSTANT, ".nv.constant3"},
    {"counter", 4, CC_CUBIN_VAR_MANAGED, ".nv.global"},
    {"hidden", 4, 0, ".nv.global"},
    {"ns::deeper::buf", 100, 0, ".nv.global"},
    {"(anonymous namespace)::anon_var", 8, 0, ".nv.global"},
    {"tvar<int>", 4, 0, ".nv.global"},
    {"bump(int)::local_counter", 4, 0, ".nv.global"},
};
#define NEXPECT (sizeof expected / sizeof expected[0])

typedef struct seen {
    int hits[NEXPECT];
    int others;
    char raw_flag[64];
    char raw_hidden[128];
} seen;

static int on_var(const cc_cubin_var *v, void *user)
{
    seen *s = user;
    char shown[256];
    cc_cubin_var_display_name(v->name, shown, sizeof shown);
    for (size_t i = 0; i < NEXPECT; i++) {
        if (strcmp(shown, expected[i].shown) != 0)
            continue;
        s->hits[i]++;
        CHECK_EQ_U64(v->size, expected[i].size);
        CHECK_EQ_U64(v->flags, expected[i].flags);
        CHECK_STR(v->section, expected[i].section);
        if (i == 0)
            snprintf(s->raw_flag, sizeof s->raw_flag, "%s", v->name);
        if (i == 7)
            snprintf(s->raw_hidden, sizeof s->raw_hidden, "%s", v->name);
        return 0;
    }
    fprintf(stderr, "unexpected variable %s (%s)\n", v->name, shown);
    s->others++;
    return 0;
}

/* List the variables of one cubin file and compare them with `expected`. */
static void check_cubin(const char *path, int relocatable_statics)
{
    size_t len = 0;
    unsigned char *data = (unsigned char *)cc_test_read_file(path, &len);
    CHECK(data != NULL);
    if (!data)
        return;
    seen s;
    memset(&s, 0, sizeof s);
    char err[256];
    int n = cc_cubin_vars(data, len, on_var, &s, err, sizeof err);
    if (n < 0)
        fprintf(stderr, "%s: %s\n", path, err);
    CHECK_EQ_U64(n, NEXPECT);
    CHECK_EQ_U64(s.others, 0);
    for (size_t i = 0; i < NEXPECT; i++) {
        if (s.hits[i] != 1)
            fprintf(stderr, "%s: %s seen %d times\n", path, expected[i].shown, s.hits[i]);
        CHECK_EQ_U64(s.hits[i], 1);
    }
    /* The stored name is what cuModuleGetGlobal takes: plain for extern "C++" scalars, the
     * static prefix kept where the linker needs it. */
    CHECK_STR(s.raw_flag, "flag");
    if (relocatable_statics)
        CHECK(strncmp(s.raw_hidden, "__nv_static_", 12) == 0);
    else
        CHECK_STR(s.raw_hidden, "hidden");
    /* Cut anywhere: an error or fewer variables, never a crash. */
    for (size_t cut = 0; cut < len; cut += len / 97 + 1) {
        int m = cc_cubin_vars(data, cut, NULL, NULL, err, sizeof err);
        CHECK(m <= n);
    }
    free(data);
}

static int run(const char *cmd)
{
    int rc = system(cmd);
    if (rc != 0)
        fprintf(stderr, "failed: %s\n", cmd);
    return rc;
}

static void check_arch(const char *dir, const char *cu, const char *arch)
{
    char cubin[1024], rdc[1024], linked[1024], cmd[4096];
    snprintf(cubin, sizeof cubin, "%s/modvars_%s.cubin", dir, arch);
    snprintf(rdc, sizeof rdc, "%s/modvars_%s_rdc.cubin", dir, arch);
    snprintf(linked, sizeof linked, "%s/modvars_%s_linked.cubin", dir, arch);
    snprintf(cmd, sizeof cmd, "nvcc -cubin -arch=%s -o '%s' '%s'", arch, cubin, cu);
    CHECK(run(cmd) == 0);
    check_cubin(cubin, 0);
    snprintf(cmd, sizeof cmd, "nvcc -cubin -rdc=true -arch=%s -o '%s' '%s'", arch, rdc, cu);
    CHECK(run(cmd) == 0);
    check_cubin(rdc, 1);
    /* nvlink sits next to nvcc in every toolkit. */
    snprintf(cmd, sizeof cmd, "nvlink -arch=%s -o '%s' '%s'", arch, linked, rdc);
    CHECK(run(cmd) == 0);
    check_cubin(linked, 1);
}

int main(void)
{
    if (!cc_test_have_nvcc()) {
        printf("skipped: nvcc not found\n");
        TEST_MAIN_END();
    }
    char cu[1024];
    snprintf(cu, sizeof cu, "%s/modvars.cu", CC_TEST_BINARY_DIR);
    int written = cc_test_write_file(cu, vars_cu);
    CHECK(written == 0);
    if (written != 0)
        TEST_MAIN_END();
    check_arch(CC_TEST_BINARY_DIR, cu, "sm_75");
    check_arch(CC_TEST_BINARY_DIR, cu, "sm_90");
    check_arch(CC_TEST_BINARY_DIR, cu, "sm_120");
    TEST_MAIN_END();
}
