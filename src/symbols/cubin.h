/* What a cubin (a CUDA device ELF, e_machine 190) says about itself and its kernels: target
 * architecture and variant, line information present, and per kernel the resources the
 * occupancy calculator and `cucheck inspect` need (registers, shared and local memory, launch
 * bounds, barriers, parameters, cluster shape). */
#ifndef CUCHECK_SYMBOLS_CUBIN_H
#define CUCHECK_SYMBOLS_CUBIN_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_cubin_info {
    uint32_t arch;          /* 90 for sm_90 */
    char arch_suffix;       /* 'a', 'f' or 0 (from .nv.compat and the ptxas options note) */
    uint32_t elf_type;      /* CC_ELF_ET_REL for -rdc objects, CC_ELF_ET_EXEC otherwise */
    uint32_t kernels;       /* entry functions */
    uint32_t functions;     /* all functions, entries included */
    int has_line_info;      /* .debug_line (SASS -> source lines, -lineinfo / -G) */
    int has_ptx_line_info;  /* .nv_debug_line_sass (SASS -> PTX lines) */
    int has_debug_info;     /* .debug_info (-G) */
    uint32_t reserved_smem; /* bytes of each .nv.shared.<k> section reserved by the system
                               (1024 on sm_90 and later cubins, else 0) */
    const char *ptxas_options; /* from .note.nv.tkinfo, e.g. "-arch sm_90a -m 64 ", or NULL */
    const char *toolkit;       /* "Cuda compilation tools, release 13.0, V13.0.88" or NULL */
} cc_cubin_info;

typedef struct cc_kernel_info {
    const char *name;          /* mangled name, points into the cubin */
    uint32_t text_section;     /* index of .text.<name> */
    uint64_t code_bytes;       /* size of the kernel's SASS */
    int has_regs;
    uint32_t regs;             /* EIATTR_REGCOUNT: registers per thread */
    uint32_t max_regs;         /* EIATTR_MAXREG_COUNT: cap ptxas honoured (from maxrregcount,
                                  __maxnreg__ or __launch_bounds__ min blocks); 0 = absent */
    uint32_t static_smem;      /* static shared bytes per block, as ptxas -v / the driver's
                                  sharedSizeBytes report it (reserved part excluded) */
    uint64_t smem_section_bytes; /* size of .nv.shared.<name> as stored */
    uint32_t local_bytes;      /* EIATTR_FRAME_SIZE: stack frame per thread */
    uint32_t min_stack_bytes;  /* EIATTR_MIN_STACK_SIZE ("cumulative stack size") */
    uint32_t max_stack_bytes;  /* EIATTR_MAX_STACK_SIZE (relocatable code) */
    uint32_t crs_stack_bytes;  /* EIATTR_CRS_STACK_SIZE */
    uint32_t max_threads[3];   /* EIATTR_MAX_THREADS (__launch_bounds__ / .maxntid); 0 = none */
    uint32_t req_threads[3];   /* EIATTR_REQNTID (.reqntid); 0 = none */
    uint32_t barriers;         /* EIATTR_NUM_BARRIERS: named barriers used */
    uint32_t mbarriers;        /* EIATTR_NUM_MBARRIERS */
    uint32_t param_bytes;      /* EIATTR_CBANK_PARAM_SIZE */
    uint32_t params;           /* number of EIATTR_KPARAM_INFO records */
    uint32_t cluster_dims[3];  /* EIATTR_CTA_PER_CLUSTER (__cluster_dims__); 0 = none */
    int explicit_cluster;      /* EIATTR_EXPLICIT_CLUSTER */
    uint32_t max_cluster_rank; /* EIATTR_MAX_CLUSTER_RANK (__launch_bounds__ 3rd argument) */
    int warp_sync_ops;         /* EIATTR_COOP_GROUP_INSTR_OFFSETS: the kernel (or a function it
                                  calls) holds warp-synchronous instructions: a shuffle, vote,
                                  match, __syncwarp or cooperative-groups sync (nvcc 13 emits it
                                  for a plain __shfl_sync too: it is not a grid-sync marker) */
    uint32_t cuda_api_version; /* EIATTR_CUDA_API_VERSION, e.g. 130 */
} cc_kernel_info;

/* Called per kernel; return non-zero to stop. */
typedef int (*cc_kernel_cb)(const cc_kernel_info *k, void *user);

/* 1 if data is an ELF with e_machine EM_CUDA. */
int cc_cubin_is_cubin(const void *data, size_t size);
/* Fill *info. 0 ok, -1 with err on a malformed cubin. */
int cc_cubin_inspect(const void *data, size_t size, cc_cubin_info *info, char *err, size_t errlen);
/* Every entry function (kernel) with its resources, in symbol-table order. Returns the number
 * of kernels delivered, or -1 with err on a malformed cubin. */
int cc_cubin_kernels(const void *data, size_t size, cc_kernel_cb cb, void *user, char *err,
                     size_t errlen);
/* Look up one kernel by mangled name. 1 found, 0 not found, -1 malformed (err). */
int cc_cubin_kernel(const void *data, size_t size, const char *name, cc_kernel_info *out,
                    char *err, size_t errlen);

#endif
