/* Pure CUDA compatibility rules used by `cucheck doctor`: version arithmetic (driver -> highest
 * CUDA, PTX ISA <-> CUDA release, minimum driver branch per release), which image of a binary a
 * GPU runs (SASS, PTX JIT, none) and the -gencode that fixes a missing one, driver vs runtime
 * verdicts, and the decoding of the version numbers that the CUDA libraries return. No I/O and
 * no CUDA: everything here is unit-tested on synthetic inputs (tests/unit/test_doctor_compat.c).
 *
 * Conventions: a CUDA version is 1000*major + 10*minor (12040 = 12.4), as cuDriverGetVersion
 * and cudaRuntimeGetVersion return it; an architecture or compute capability is 10*major +
 * minor (90 = sm_90 = CC 9.0, 120 = CC 12.0, 121 = CC 12.1). */
#ifndef CUCHECK_DOCTOR_COMPAT_H
#define CUCHECK_DOCTOR_COMPAT_H

#include <stddef.h>
#include <stdint.h>

#define CC_DOC_CUDA(maj, min) ((maj) * 1000 + (min) * 10)
#define CC_DOC_CUDA_MAJOR(v) ((v) / 1000)
#define CC_DOC_CUDA_MINOR(v) (((v) % 1000) / 10)

/* ---- versions ---- */
/* Lowest CUDA release whose driver loads PTX of ISA maj.min (PTX 8.6 -> 12.7, 9.0 -> 13.0);
 * ISA versions past the known table are extrapolated (major + 4). 0 for maj == 0. */
int cc_doc_ptx_min_cuda(int ptx_major, int ptx_minor);
/* Newest PTX ISA a driver supporting CUDA `cuda` accepts (12.6 -> 8.5, 13.0 -> 9.0). */
void cc_doc_driver_max_ptx(int cuda, int *ptx_major, int *ptx_minor);
/* Minimum Linux driver branch (e.g. 580) that fully supports CUDA release `cuda` (its own
 * minor); 0 if unknown. */
int cc_doc_driver_branch_for_cuda(int cuda);
/* Minimum driver branch for minor-version compatibility with a CUDA major (13 -> 580,
 * 12 -> 525, 11 -> 450); 0 if unknown. */
int cc_doc_driver_branch_for_major(int major);
/* Highest CUDA release a driver branch supports (580 -> 13000), from the same table; 0 if the
 * branch is older than the table. */
int cc_doc_cuda_for_driver_branch(int branch);
/* "12.4" */
void cc_doc_cuda_str(int cuda, char *buf, size_t len);

/* ---- kernel images ---- */
typedef struct cc_doc_image {
    uint8_t is_ptx;        /* 1: PTX (compute_XY), 0: SASS (sm_XY) */
    char suffix;           /* 'a', 'f' or 0 */
    uint16_t arch;         /* 90 */
    uint16_t ptx_major, ptx_minor; /* PTX ISA version (PTX images); 0.0 = unknown */
} cc_doc_image;

/* 1 if a cubin for sm_<arch><suffix> runs on a GPU of compute capability cc: same major and
 * arch minor <= GPU minor; 'a' cubins only on the exact CC; 'f' cubins like plain ones. */
int cc_doc_sass_runs(int arch, char suffix, int cc);
/* 1 if PTX for compute_<arch><suffix> may be JIT-compiled for cc (ignoring the ISA version):
 * arch <= cc; 'a' PTX only on the exact CC; 'f' PTX only within the same major. */
int cc_doc_ptx_arch_ok(int arch, char suffix, int cc);

typedef enum cc_doc_run_kind {
    CC_RUN_SASS = 0,        /* a compatible cubin is present */
    CC_RUN_PTX_JIT = 1,     /* no cubin; PTX is JIT-compiled by the driver */
    CC_RUN_PTX_TOO_NEW = 2, /* only PTX whose ISA this driver does not know (error 222) */
    CC_RUN_JIT_DISABLED = 3,/* only PTX, and CUDA_DISABLE_PTX_JIT=1 forbids the JIT */
    CC_RUN_NO_IMAGE = 4,    /* nothing for this GPU: "no kernel image is available" (209) */
    CC_RUN_NO_DEVICE_CODE = 5, /* the binary carries no device code at all */
} cc_doc_run_kind;

typedef struct cc_doc_env_flags {
    int disable_ptx_jit; /* CUDA_DISABLE_PTX_JIT=1 */
    int force_ptx_jit;   /* CUDA_FORCE_PTX_JIT=1: embedded SASS is ignored */
} cc_doc_env_flags;

typedef struct cc_doc_pick {
    cc_doc_run_kind kind;
    int image;            /* index of the image that runs (SASS/PTX_JIT), of the newest
                             rejected PTX (PTX_TOO_NEW / JIT_DISABLED), else -1 */
    int need_cuda;        /* PTX_TOO_NEW: CUDA release the driver must support */
} cc_doc_pick;

/* Which image a GPU of compute capability cc runs. driver_cuda: what the driver supports
 * (0 = unknown: the PTX ISA check is skipped). env may be NULL. The best SASS is the highest
 * compatible arch; the PTX chosen is the highest acceptable arch. */
cc_doc_pick cc_doc_pick_image(const cc_doc_image *imgs, size_t n, int cc, int driver_cuda,
                              const cc_doc_env_flags *env);
/* Sort by arch, SASS before PTX, plain before 'a'/'f'. */
void cc_doc_sort_images(cc_doc_image *imgs, size_t n);
/* "-gencode arch=compute_90,code=sm_90" for a GPU of compute capability cc ('a' not implied). */
void cc_doc_gencode_for(int cc, char *buf, size_t len);
/* "sm_90a" / "compute_100f" */
void cc_doc_image_name(const cc_doc_image *img, char *buf, size_t len);
/* Parse "sm_90a", "compute_80", "90", "9.0" (a CC). 0 ok, -1 malformed. For "X.Y" and bare
 * numbers is_ptx is 0. */
int cc_doc_parse_arch(const char *s, cc_doc_image *out);
/* Parse a compute capability "9.0" / "12.1" / "90" into 10*major+minor; -1 if malformed. */
int cc_doc_parse_cc(const char *s);

/* ---- driver vs runtime ---- */
typedef enum cc_doc_drv_fit {
    CC_DRV_UNKNOWN = 0,       /* no driver or no runtime version */
    CC_DRV_OK = 1,            /* driver supports this CUDA release or newer */
    CC_DRV_MINOR_COMPAT = 2,  /* same major, older minor: minor-version compatibility */
    CC_DRV_TOO_OLD = 3,       /* older major: cudaErrorInsufficientDriver (35) */
} cc_doc_drv_fit;
cc_doc_drv_fit cc_doc_driver_fits(int runtime_cuda, int driver_cuda);

/* ---- library version numbers ---- */
/* cudnnGetVersion: 9.x is M*10000+m*100+p (90100), 8.x and older M*1000+m*100+p (8907). */
void cc_doc_decode_cudnn(long long v, int *maj, int *min, int *patch);
/* ncclGetVersion: X*1000+Y*100+Z up to 2.8, X*10000+Y*100+Z afterwards (22707). */
void cc_doc_decode_nccl(long long v, int *maj, int *min, int *patch);
/* cublasLtGetVersion: M*10000+m*100+p (130100). */
void cc_doc_decode_cublaslt(long long v, int *maj, int *min, int *patch);
/* cuptiGetVersion: the CUDA release of a CUPTI API version (130001 -> 13000, 19 -> 12000);
 * 0 if unknown. */
int cc_doc_cupti_cuda(long long v);

#endif
