/* Unit tests of doctor's verdicts on synthetic reports (driver X, libraries of CUDA Y, binary
 * archs Z, GPU CC W), of its --json output (parsed back), of the Python probe and LD_DEBUG
 * parsers, and of the kernel-image scan on hand-made fatbin files. No GPU needed. */
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "check.h"
#include "core/json.h"
#include "doctor/doctor.h"
#include "doctor/probe.h"

static cc_doc_report *new_report(int driver_cuda, int gpu_cc)
{
    cc_doc_report *r = calloc(1, sizeof *r);
    r->driver.nvml_gpus = -1;
    r->driver.init_result = -1;
    if (driver_cuda > 0) {
        r->driver.libcuda_loaded = 1;
        snprintf(r->driver.libcuda_path, sizeof r->driver.libcuda_path, "/usr/lib/libcuda.so.1");
        r->driver.cuda = driver_cuda;
        r->driver.init_result = 0;
        snprintf(r->driver.branch, sizeof r->driver.branch, "570.86.15");
    }
    if (gpu_cc > 0) {
        r->driver.ngpus = 1;
        cc_doc_gpu *g = &r->driver.gpus[0];
        snprintf(g->name, sizeof g->name, "Test GPU");
        g->cc = gpu_cc;
        g->ecc = g->ecc_pending = g->mig = -1;
    }
    return r;
}

static cc_doc_lib *add_lib(cc_doc_report *r, int kind, const char *path, int cuda, int major_only)
{
    cc_doc_lib *l = &r->libs[r->nlibs++];
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->origin = CC_ORIGIN_TOOLKIT;
    snprintf(l->path, sizeof l->path, "%s", path);
    l->ok = l->probed = 1;
    l->cuda = cuda;
    l->cuda_major_only = major_only;
    cc_doc_cuda_str(cuda, l->version, sizeof l->version);
    return l;
}

static cc_doc_binary *add_bin(cc_doc_report *r, const char *archs)
{
    cc_doc_binary *b = &r->bins[r->nbins++];
    memset(b, 0, sizeof *b);
    snprintf(b->path, sizeof b->path, "/tmp/app");
    snprintf(b->label, sizeof b->label, "binary");
    b->origin = CC_ORIGIN_ARGUMENT;
    b->archs.scanned = 1;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", archs);
    for (char *save = NULL, *t = strtok_r(copy, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        cc_doc_image img;
        if (cc_doc_parse_arch(t, &img) == 0) {
            if (img.is_ptx) {
                img.ptx_major = 9;
                img.ptx_minor = 0;
            }
            b->archs.img[b->archs.n++] = img;
            b->archs.has_device_code = 1;
        }
    }
    return b;
}

/* Index of the first verdict of `level` in topic whose text or fix contains needle; -1. */
static int find(const cc_doc_report *r, int level, const char *topic, const char *needle)
{
    for (int i = 0; i < r->nverdicts; i++) {
        const cc_doc_verdict *v = &r->verdicts[i];
        if (v->level == level && strcmp(v->topic, topic) == 0 &&
            (strstr(v->text, needle) || strstr(v->fix, needle) || strstr(v->subject, needle)))
            return i;
    }
    return -1;
}

static void clear_env(void)
{
    static const char *const vars[] = {"CUDA_VISIBLE_DEVICES", "CUDA_MODULE_LOADING",
                                       "CUDA_LAUNCH_BLOCKING", "CUDA_DISABLE_PTX_JIT",
                                       "CUDA_FORCE_PTX_JIT", "CUDA_CACHE_DISABLE",
                                       "CUDA_DEVICE_ORDER"};
    for (unsigned i = 0; i < sizeof vars / sizeof vars[0]; i++)
        unsetenv(vars[i]);
}

static void test_no_kernel_image(void)
{
    cc_doc_report *r = new_report(13000, 90);
    add_bin(r, "sm_100");
    cc_doctor_judge(r);
    int i = find(r, CC_DOC_FAIL, "image", "NO KERNEL IMAGE");
    CHECK(i >= 0);
    if (i >= 0)
        CHECK(strstr(r->verdicts[i].fix, "-gencode arch=compute_90,code=sm_90") != NULL);
    CHECK(cc_doctor_failed(r));
    free(r);
}

static void test_sass_and_jit(void)
{
    cc_doc_report *r = new_report(13000, 90);
    add_bin(r, "sm_80 sm_90");
    add_bin(r, "compute_80");
    cc_doctor_judge(r);
    CHECK(find(r, CC_DOC_OK, "image", "runs as SASS (sm_90)") >= 0);
    CHECK(find(r, CC_DOC_WARN, "image", "runs by PTX JIT from compute_80") >= 0);
    CHECK(!cc_doctor_failed(r));
    free(r);
    /* PTX ISA 9.0 on a CUDA 12.8 driver: rejected */
    r = new_report(12080, 90);
    add_bin(r, "compute_90");
    cc_doctor_judge(r);
    CHECK(find(r, CC_DOC_FAIL, "image", "cudaErrorUnsupportedPtxVersion") >= 0);
    CHECK(find(r, CC_DOC_FAIL, "image", "branch >= 580") >= 0);
    free(r);
}

static void test_driver_vs_libraries(void)
{
    cc_doc_report *r = new_report(12040, 90);
    add_lib(r, CC_LIB_CUDART, "/opt/a/libcudart.so.13", 13000, 0);
    cc_doctor_judge(r);
    CHECK(find(r, CC_DOC_FAIL, "libraries", "cudaErrorInsufficientDriver") >= 0);
    CHECK(find(r, CC_DOC_FAIL, "libraries", "cuda-compat-13-0") >= 0);
    free(r);

    r = new_report(12040, 90);
    add_lib(r, CC_LIB_CUDART, "/opt/a/libcudart.so.12", 12080, 0);
    add_lib(r, CC_LIB_CUBLAS, "/opt/a/libcublas.so.12", 12000, 1); /* major only: fits */
    cc_doctor_judge(r);
    CHECK(find(r, CC_DOC_WARN, "libraries", "minor-version compatibility") >= 0);
    CHECK(find(r, CC_DOC_WARN, "libraries", "libcublas") < 0);
    CHECK(!cc_doctor_failed(r));
    free(r);

    r = new_report(13000, 90);
    add_lib(r, CC_LIB_CUDART, "/opt/a/libcudart.so.12", 12080, 0);
    add_lib(r, CC_LIB_CUBLAS, "/opt/a/libcublas.so.13", 13000, 1);
    add_lib(r, CC_LIB_CUDART, "/opt/b/libcudart.so.13", 13000, 0);
    cc_doctor_judge(r);
    CHECK(find(r, CC_DOC_OK, "libraries", "covers every library") >= 0);
    int i = find(r, CC_DOC_WARN, "libraries", "mixed CUDA majors");
    CHECK(i >= 0);
    if (i >= 0)
        CHECK_STR(r->verdicts[i].subject, "/opt/a");
    free(r);
}

static void test_no_driver(void)
{
    cc_doc_report *r = new_report(0, 0);
    snprintf(r->driver.load_error, sizeof r->driver.load_error, "libcuda.so.1: not found");
    add_bin(r, "sm_100 compute_100");
    cc_doctor_judge(r);
    CHECK(find(r, CC_DOC_WARN, "driver", "no NVIDIA driver found (libcuda.so.1 not loadable") >= 0);
    CHECK(find(r, CC_DOC_INFO, "image", "SASS for CC 10.0-10.9; PTX JIT for CC >= 10.0") >= 0);
    CHECK(!cc_doctor_failed(r));
    free(r);
    /* --cc without a driver still judges */
    r = new_report(0, 0);
    r->opt.extra_cc[r->opt.nextra_cc++] = 120;
    add_bin(r, "sm_100a");
    cc_doctor_judge(r);
    CHECK(find(r, CC_DOC_FAIL, "image", "compute_120,code=sm_120") >= 0);
    free(r);
}

static void test_environment(void)
{
    cc_doc_report *r = new_report(13000, 90);
    r->driver.nvml_gpus = 2;
    r->env_visible = "0,7";
    r->env_module_loading = "SOMETIMES";
    cc_doctor_judge(r);
    CHECK(find(r, CC_DOC_WARN, "environment", "entry 2 \"7\" is invalid") >= 0);
    CHECK(find(r, CC_DOC_WARN, "environment", "LAZY or EAGER") >= 0);
    free(r);
    r = new_report(13000, 90);
    r->env_visible = "";
    r->env_flags.disable_ptx_jit = 1;
    add_bin(r, "compute_80");
    cc_doctor_judge(r);
    CHECK(find(r, CC_DOC_WARN, "environment", "CUDA sees no GPU") >= 0);
    CHECK(find(r, CC_DOC_FAIL, "image", "CUDA_DISABLE_PTX_JIT") >= 0);
    free(r);
}

static void test_python(void)
{
    cc_doc_report *r = new_report(12040, 100);
    cc_doc_parse_python_output("python_version\t3.11.7\nsite\t/venv/site-packages\n"
                               "torch_version\t2.5.1+cu124\ntorch_cuda\t12.4\n"
                               "torch_archs\tsm_50 sm_80 sm_90\ncuda_available\tFalse\n"
                               "junk line without tab\n\tempty key\n",
                               &r->python);
    CHECK_STR(r->python.python_version, "3.11.7");
    CHECK_EQ_U64(r->python.nsites, 1);
    CHECK(r->python.torch_found);
    CHECK_STR(r->python.torch_archs, "sm_50 sm_80 sm_90");
    r->python.requested = r->python.ran = 1;
    /* the arch list judged as a binary, like collect.c does */
    cc_doc_binary *b = add_bin(r, r->python.torch_archs);
    snprintf(b->label, sizeof b->label, "PyTorch arch list");
    b->origin = CC_ORIGIN_PYTHON;
    cc_doctor_judge(r);
    CHECK(find(r, CC_DOC_OK, "python", "built for CUDA 12.4") >= 0);
    CHECK(find(r, CC_DOC_FAIL, "python", "is_available() is False") >= 0);
    CHECK(find(r, CC_DOC_FAIL, "image", "TORCH_CUDA_ARCH_LIST=\"10.0\"") >= 0);
    free(r);
}

struct paths {
    int n;
    char last[256];
};
static void on_path(const char *p, void *u)
{
    struct paths *ps = u;
    ps->n++;
    snprintf(ps->last, sizeof ps->last, "%s", p);
}

static void test_ld_debug(void)
{
    struct paths ps = {0, ""};
    cc_doc_parse_ld_debug("     12:\tcalling init: /lib/x86_64-linux-gnu/libc.so.6\n"
                          "     12:\tfind library=libcudart.so.12 [0]; searching\n"
                          "     12:\tcalling init: relative/ignored.so\n"
                          "     12:\tcalling init: /opt/cuda/lib64/libcudart.so.12  \n"
                          "     12:\tcalling fini: /opt/cuda/lib64/libcudart.so.12 [0]\n"
                          "calling init: ",
                          on_path, &ps);
    CHECK_EQ_U64(ps.n, 2);
    CHECK_STR(ps.last, "/opt/cuda/lib64/libcudart.so.12");
    CHECK_EQ_U64(cc_doc_lib_kind_of("/x/libcudart.so.12.4.127"), CC_LIB_CUDART);
    CHECK_EQ_U64(cc_doc_lib_kind_of("libcublasLt.so.13"), CC_LIB_CUBLASLT);
    CHECK_EQ_U64(cc_doc_lib_kind_of("libcublas.so"), CC_LIB_CUBLAS);
    CHECK(cc_doc_lib_kind_of("libcudart_static.a") < 0);
    CHECK(cc_doc_lib_kind_of("libnvrtc-builtins.so.13.0") < 0);
    CHECK(cc_doc_lib_kind_of("libcudnn_ops.so.9") < 0);
    CHECK_EQ_U64(cc_doc_lib_kind_of("libsanitizer-public.so"), CC_LIB_SANITIZER);
}

static void put16(unsigned char *p, unsigned v) { p[0] = v & 0xff; p[1] = (v >> 8) & 0xff; }
static void put32(unsigned char *p, unsigned v) { put16(p, v & 0xffff); put16(p + 2, v >> 16); }
static void put64(unsigned char *p, unsigned long long v)
{
    put32(p, (unsigned)v);
    put32(p + 4, (unsigned)(v >> 32));
}

static void entry(unsigned char *e, unsigned kind, unsigned arch, unsigned maj, unsigned min)
{
    put16(e, kind);
    put16(e + 2, 0x0101);
    put32(e + 4, 64);
    put64(e + 8, 8);
    put16(e + 24, min);
    put16(e + 26, maj);
    put32(e + 28, arch);
    put64(e + 40, 0x11);
}

static void test_scan_fatbin(void)
{
    unsigned char buf[16 + 2 * 72];
    memset(buf, 0, sizeof buf);
    put32(buf, 0xBA55ED50u);
    put16(buf + 4, 1);
    put16(buf + 6, 16);
    put64(buf + 8, 2 * 72);
    entry(buf + 16, 2, 100, 1, 8);
    entry(buf + 16 + 72, 1, 90, 9, 0);
    char path[] = "/tmp/cc_doctor_test_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    if (fd < 0)
        return;
    CHECK(write(fd, buf, sizeof buf) == (ssize_t)sizeof buf);
    close(fd);
    cc_doc_archs a;
    cc_doc_scan_archs(path, &a);
    CHECK(a.has_device_code && a.n == 2 && !a.error[0]);
    if (a.n == 2) {
        CHECK(a.img[0].is_ptx && a.img[0].arch == 90 && a.img[0].ptx_major == 9);
        CHECK(a.img[1].arch == 100 && !a.img[1].is_ptx);
    }
    /* truncated: the first entry survives, the error is reported */
    fd = open(path, O_WRONLY | O_TRUNC);
    CHECK(fd >= 0 && write(fd, buf, 16 + 72 + 20) == 16 + 72 + 20);
    close(fd);
    cc_doc_scan_archs(path, &a);
    CHECK(a.error[0] != 0);
    /* not a binary */
    fd = open(path, O_WRONLY | O_TRUNC);
    CHECK(fd >= 0 && write(fd, "hello world", 11) == 11);
    close(fd);
    cc_doc_scan_archs(path, &a);
    CHECK(!a.has_device_code && !a.error[0]);
    unlink(path);
    cc_doc_scan_archs("/nonexistent/file", &a);
    CHECK(a.error[0] != 0);
}

static void test_json(void)
{
    cc_doc_report *r = new_report(13000, 90);
    add_lib(r, CC_LIB_CUDNN, "/opt/\"quoted\"/libcudnn.so.9", 13000, 1);
    add_bin(r, "sm_100 compute_90");
    r->python.requested = 1;
    cc_doctor_judge(r);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    cc_doctor_print_json(f, r);
    fclose(f);
    char err[160];
    cc_json *j = cc_json_parse(text, len, err, sizeof err);
    CHECK(j != NULL);
    if (!j)
        fprintf(stderr, "%s\n%s\n", err, text);
    CHECK_STR(cc_json_str(cc_json_get(j, "tool")), "doctor");
    CHECK_EQ_U64(cc_json_size(cc_json_get(j, "libraries")), 1);
    CHECK_STR(cc_json_str(cc_json_get(cc_json_at(cc_json_get(j, "libraries"), 0), "path")),
              "/opt/\"quoted\"/libcudnn.so.9");
    const cc_json *gpus = cc_json_get(cc_json_get(j, "driver"), "gpus");
    CHECK_STR(cc_json_str(cc_json_get(cc_json_at(gpus, 0), "compute_capability")), "9.0");
    CHECK_EQ_U64(cc_json_size(cc_json_get(j, "verdicts")), (size_t)r->nverdicts);
    cc_json_free(j);
    free(text);
    free(r);
}

int main(void)
{
    clear_env();
    test_no_kernel_image();
    test_sass_and_jit();
    test_driver_vs_libraries();
    test_no_driver();
    test_environment();
    test_python();
    test_ld_debug();
    test_scan_fatbin();
    test_json();
    TEST_MAIN_END();
}
