/* cucheck doctor: the model of what was found (driver, GPUs, CUDA libraries, binaries and
 * their kernel images, the Python/PyTorch environment, a program's loaded libraries), the
 * verdicts derived from it, and the entry points that probe, judge and print. Probing lives in
 * probe_*.c, pure rules in compat*.c, verdicts in verdicts*.c, output in print_*.c. */
#ifndef CUCHECK_DOCTOR_DOCTOR_H
#define CUCHECK_DOCTOR_DOCTOR_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>

#include "doctor/compat.h"
#include "doctor/compat_env.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

#define CC_DOC_MAX_GPUS 32
#define CC_DOC_MAX_LIBS 160
#define CC_DOC_MAX_BINS 96
#define CC_DOC_MAX_IMAGES 96
#define CC_DOC_MAX_VERDICTS 400
#define CC_DOC_MAX_EXTRA_CC 16
#define CC_DOC_MAX_SITES 8
#define CC_DOC_MAX_PKGS 64

typedef struct cc_doc_gpu {
    int ordinal;           /* CUDA device ordinal (after CUDA_VISIBLE_DEVICES) */
    char name[128];
    int cc;                /* 10*major + minor */
    int sms;
    uint64_t mem_bytes;
    int ecc;               /* 1 on, 0 off, -1 unknown */
    int ecc_pending;       /* NVML pending mode, -1 unknown */
    int mig;               /* 1 enabled, 0 disabled, -1 unknown / not supported */
    char uuid[48];         /* "GPU-xxxxxxxx-xxxx-..." */
    char pci[32];          /* "0000:65:00.0" */
} cc_doc_gpu;

typedef struct cc_doc_driver {
    int libcuda_loaded;
    char libcuda_path[PATH_MAX];  /* the libcuda the dynamic loader chose */
    char load_error[256];
    int is_stub;                  /* a toolkit stub library (cuInit returns 34) */
    int is_compat;                /* a forward-compatibility (cuda-compat) libcuda */
    int cuda;                     /* cuDriverGetVersion: highest CUDA supported; 0 unknown */
    int init_result;              /* cuInit(0) result; -1 not called */
    char init_error[96];          /* its name, e.g. "CUDA_ERROR_NO_DEVICE" */
    char branch[80];              /* "580.65.06" from NVML (its size) or /proc/driver/nvidia */
    int branch_major;             /* 580 */
    int nvml_loaded;
    int nvml_gpus;                /* GPUs NVML sees (ignores CUDA_VISIBLE_DEVICES); -1 unknown */
    char nvml_uuids[CC_DOC_MAX_GPUS][96];  /* NVML writes these two directly (its V2 sizes: 96) */
    char nvml_names[CC_DOC_MAX_GPUS][96];
    int ngpus;
    cc_doc_gpu gpus[CC_DOC_MAX_GPUS];
} cc_doc_driver;

typedef enum cc_doc_lib_kind {
    CC_LIB_CUDART = 0,
    CC_LIB_CUBLAS,
    CC_LIB_CUBLASLT,
    CC_LIB_CUDNN,
    CC_LIB_NCCL,
    CC_LIB_CUPTI,
    CC_LIB_NVRTC,
    CC_LIB_NVJITLINK,
    CC_LIB_SANITIZER,
    CC_LIB_KIND_COUNT,
} cc_doc_lib_kind;

/* Where a library or binary was found. */
typedef enum cc_doc_origin {
    CC_ORIGIN_LD_LIBRARY_PATH = 0,
    CC_ORIGIN_LDCONFIG,
    CC_ORIGIN_TOOLKIT,
    CC_ORIGIN_PYTHON,     /* site-packages (nvidia/PKG/lib wheels, torch/lib) */
    CC_ORIGIN_PROGRAM,    /* loaded by `doctor -- program` */
    CC_ORIGIN_ARGUMENT,   /* --binary */
    CC_ORIGIN_COUNT,
} cc_doc_origin;

typedef struct cc_doc_archs {
    int scanned;          /* 1 once looked at */
    int has_device_code;
    int n;
    cc_doc_image img[CC_DOC_MAX_IMAGES];
    int truncated;        /* more images than fit */
    char error[200];      /* unreadable / malformed part, "" if none */
} cc_doc_archs;

typedef struct cc_doc_lib {
    int kind;             /* cc_doc_lib_kind */
    int origin;           /* cc_doc_origin */
    char path[PATH_MAX];  /* real path */
    int probed, ok;       /* version function called; it succeeded */
    char error[200];
    long long raw;        /* the number the version function returned */
    char version[48];     /* "12.4.1", "9.1.0" */
    int cuda;             /* CUDA release it belongs to (1000*M+10*m), 0 unknown */
    int cuda_major_only;  /* only the major of cuda is known */
    int built_cudart;     /* cudnnGetCudartVersion / cublas*GetCudartVersion; 0 unknown */
    char wheel[160];      /* "nvidia-cublas-cu12 12.4.5.8" when a pip wheel owns the file */
    cc_doc_archs archs;   /* kernel images (libraries that carry device code) */
} cc_doc_lib;

typedef struct cc_doc_binary {
    char path[PATH_MAX];
    char label[64];       /* "binary", "PyTorch arch list", "loaded by program" */
    int origin;
    cc_doc_archs archs;
} cc_doc_binary;

typedef struct cc_doc_python {
    int requested;
    char interpreter[PATH_MAX];
    int ran;              /* the interpreter ran the probe script */
    char error[256];
    char python_version[64];
    char platform[128];
    int nsites;
    char sites[CC_DOC_MAX_SITES][PATH_MAX];
    int torch_found;
    char torch_error[256];
    char torch_version[64];
    char torch_cuda[32];  /* torch.version.cuda, "" for a CPU build */
    char torch_cudnn[32];
    char torch_nccl[32];
    char torch_lib[PATH_MAX];
    char torch_archs[256];/* "sm_80 sm_90 compute_90" */
    char torch_debug[8];
    char cuda_available[8];
    char device_count[8];
    char nvcc[160];       /* `nvcc --version` on PATH, what collect_env calls the runtime */
    int npkgs;
    char pkgs[CC_DOC_MAX_PKGS][96]; /* "nvidia-cublas-cu12==12.4.5.8" */
} cc_doc_python;

typedef struct cc_doc_program {
    int requested;
    char **argv;
    int ran;
    int status;           /* exit status, 128+signal */
    char error[256];
    char libcuda[PATH_MAX]; /* libcuda it loaded, "" if none */
    int nloaded;          /* objects it loaded */
} cc_doc_program;

/* One test process run with the agent injected the way `cucheck TOOL` injects it: `cucheck
 * --report-dir TMP --keep-reports TOOL -- cucheck doctor --cuda-probe`, under LD_DEBUG=libs. */
typedef struct cc_doc_injection {
    const char *tool;       /* "run" (Compute Sanitizer backend) or "profile" (CUPTI) */
    int ran;                /* the test process could be started */
    int status;             /* cucheck's exit status */
    char error[256];        /* why it could not run */
    int agent_loaded;       /* the loader initialised libcucheck_agent.so */
    int reports;            /* process reports written: the agent initialised and subscribed */
    char backend_lib[PATH_MAX]; /* libsanitizer-public.so / libcupti.so the agent loaded */
    int preload_failed;     /* the loader refused the agent (a line naming why in message) */
    int conflict;           /* another tools-API client held the subscription */
    int no_driver;          /* the report's note: no libcuda.so.1 could be loaded */
    int driver_used;        /* the probe reached the driver (cuInit succeeded) */
    int contexts;           /* contexts the run tool tracked; -1 unknown */
    char message[512];      /* the line that explains a failure (agent, loader or note) */
} cc_doc_injection;

/* Another CUDA tools client named by this environment (Nsight, compute-sanitizer, a profiler). */
#define CC_DOC_MAX_CLIENTS 8
typedef struct cc_doc_client {
    char variable[32];      /* "CUDA_INJECTION64_PATH", "NVTX_INJECTION64_PATH", "LD_PRELOAD" */
    char value[PATH_MAX];   /* the entry naming the other tool */
    char tool[64];          /* "Nsight Systems", "compute-sanitizer", ... or "another tool" */
} cc_doc_client;

typedef struct cc_doc_agent {
    int checked;            /* 0 with --no-agent */
    char path[PATH_MAX];    /* libcucheck_agent.so, "" when not found */
    char locate_error[512];
    cc_doc_lib sanitizer;   /* as the agent loaded it (kind CC_LIB_SANITIZER), path "" if not */
    cc_doc_lib cupti;       /* as the profile test loaded it, or where the agent would look */
    cc_doc_injection inject[2]; /* run, profile */
    int nclients;
    cc_doc_client clients[CC_DOC_MAX_CLIENTS];
} cc_doc_agent;

typedef enum cc_doc_level {
    CC_DOC_INFO = 0,
    CC_DOC_OK = 1,
    CC_DOC_WARN = 2,
    CC_DOC_FAIL = 3,
} cc_doc_level;

typedef struct cc_doc_verdict {
    int level;            /* cc_doc_level */
    char topic[24];       /* "driver", "image", "libraries", "environment", "python" */
    char subject[200];    /* what the verdict is about */
    char text[512];
    char fix[512];        /* "" when nothing to do */
} cc_doc_verdict;

typedef struct cc_doc_options {
    const char **binaries;
    int nbinaries;
    int python;           /* --python given */
    const char *interpreter; /* NULL: python3 */
    int json;
    char **program;       /* after "--", NULL-terminated; NULL if none */
    int extra_cc[CC_DOC_MAX_EXTRA_CC]; /* --cc X.Y: GPUs to check besides those present */
    int nextra_cc;
    int no_search;        /* --no-search: skip the system library search (tests) */
    int no_agent;         /* --no-agent: skip the agent checks */
    const char *cucheck_exe; /* this cucheck executable (runs the injection test) */
    const char *agent;    /* libcucheck_agent.so as cucheck would inject it; NULL: not found */
    const char *agent_error; /* why it was not found */
} cc_doc_options;

typedef struct cc_doc_report {
    cc_doc_options opt;
    char host[160];       /* "Linux 6.1.0 x86_64, glibc 2.36" */
    cc_doc_driver driver;
    int nlibs;
    cc_doc_lib libs[CC_DOC_MAX_LIBS];
    int nbins;
    cc_doc_binary bins[CC_DOC_MAX_BINS];
    cc_doc_python python;
    cc_doc_program program;
    cc_doc_agent agent;
    char toolkit_nvcc[160];
    /* environment as read */
    const char *env_visible, *env_module_loading, *env_ld_library_path;
    cc_doc_env_flags env_flags;
    int nverdicts;
    cc_doc_verdict verdicts[CC_DOC_MAX_VERDICTS];
} cc_doc_report;

/* ---- entry points ---- */
/* Probe everything opt asks for and judge it; the report is large: allocate it on the heap. */
void cc_doctor_collect(cc_doc_report *r);
void cc_doctor_judge(cc_doc_report *r);
void cc_doctor_print_text(FILE *out, const cc_doc_report *r);
void cc_doctor_print_json(FILE *out, const cc_doc_report *r);
/* 1 if any verdict is FAIL. */
int cc_doctor_failed(const cc_doc_report *r);

/* ---- helpers shared inside src/doctor ---- */
const char *cc_doc_lib_name(int kind);       /* "cudart", "cuBLAS", ... */
const char *cc_doc_origin_name(int origin);  /* "LD_LIBRARY_PATH", "ldconfig", ... */
const char *cc_doc_level_name(int level);    /* "OK", "WARN", "FAIL", "INFO" */
/* Kind of a library file by its base name (libcudart.so.12 -> CC_LIB_CUDART); -1 if none. */
int cc_doc_lib_kind_of(const char *path);
/* Add a verdict (printf-style text; fix may be NULL). Silently dropped past the cap. */
void cc_doc_add_verdict(cc_doc_report *r, int level, const char *topic, const char *subject,
                        const char *fix, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
/* Scan path's kernel images and add it as a binary (deduplicated by real path); files without
 * device code are kept only when keep_empty. Returns its index or -1. */
int cc_doc_add_binary(cc_doc_report *r, const char *path, const char *label, int origin,
                      int keep_empty);
/* The agent's text section and JSON object (print_agent.c). */
void cc_doc_print_agent_text(FILE *out, const cc_doc_report *r);
void cc_doc_print_agent_json(FILE *out, const cc_doc_agent *a);
/* Add a library path (deduplicated by real path); returns its index or -1. */
int cc_doc_add_lib(cc_doc_report *r, int kind, int origin, const char *path);

#endif
