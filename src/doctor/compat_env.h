/* How CUDA's environment variables change what a program sees: CUDA_VISIBLE_DEVICES (which
 * GPUs, in which order; the driver stops at the first invalid entry) and CUDA_MODULE_LOADING.
 * Pure parsing, unit-tested (tests/unit/test_doctor_compat.c). */
#ifndef CUCHECK_DOCTOR_COMPAT_ENV_H
#define CUCHECK_DOCTOR_COMPAT_ENV_H

#include <stddef.h>

#define CC_DOC_MAX_VISIBLE 64

typedef struct cc_doc_visible {
    int set;            /* the variable is present (possibly empty) */
    int count;          /* entries accepted before the first invalid one */
    int index[CC_DOC_MAX_VISIBLE]; /* physical GPU per accepted entry; -1 for MIG-... tokens */
    int first_invalid;  /* 0-based position of the first invalid entry, -1 if none */
    char invalid[64];   /* that entry, truncated */
    char why[96];       /* why it is invalid */
    int has_mig;        /* a MIG-... entry was accepted */
} cc_doc_visible;

/* Parse value (NULL = unset) against physical GPUs: count (-1 = unknown: any index accepted)
 * and their UUID strings "GPU-xxxxxxxx-..." (may be NULL). Entries: an index, a unique prefix
 * of a GPU UUID written with its "GPU-" prefix, or a "MIG-..." instance. */
void cc_doc_parse_visible(const char *value, int count, const char *const *uuids,
                          cc_doc_visible *out);

typedef enum cc_doc_module_loading {
    CC_MODLOAD_UNSET = 0,   /* default: lazy from CUDA 12.2 on, eager before */
    CC_MODLOAD_LAZY = 1,
    CC_MODLOAD_EAGER = 2,
    CC_MODLOAD_INVALID = 3,
} cc_doc_module_loading;
cc_doc_module_loading cc_doc_parse_module_loading(const char *value);
/* 1 if modules load lazily for this runtime (CUDA version 1000*M+10*m; 0 = unknown, taken as
 * recent). Lazy loading exists from 11.7 and is the default from 12.2. */
int cc_doc_lazy_loading(cc_doc_module_loading v, int runtime_cuda);

/* 1 if an environment flag is set to a true value ("1"). */
int cc_doc_env_true(const char *value);

#endif
