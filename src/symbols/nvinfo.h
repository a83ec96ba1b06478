/* Reader for the attribute records of a cubin's .nv.info and .nv.info.<function> sections
 * ("EIATTR" records). Each record starts with a 4-byte header: u8 format, u8 attribute id and a
 * u16 that is the value (format 3), the byte value in its low byte (format 2), unused (format 1)
 * or the size of the data that follows (format 4). Attribute ids were determined empirically
 * with nvcc 13.0 (docs/inspect.md). */
#ifndef CUCHECK_SYMBOLS_NVINFO_H
#define CUCHECK_SYMBOLS_NVINFO_H

#include <stddef.h>
#include <stdint.h>

#define CC_EIFMT_NVAL 1u
#define CC_EIFMT_BVAL 2u
#define CC_EIFMT_HVAL 3u
#define CC_EIFMT_SVAL 4u

/* Attribute ids used by cucheck (verified with nvcc 13.0, see docs/inspect.md). */
#define CC_EIATTR_CTAIDZ_USED 0x04u
#define CC_EIATTR_MAX_THREADS 0x05u        /* u32[3] from __launch_bounds__ / .maxntid */
#define CC_EIATTR_PARAM_CBANK 0x0au        /* u32 sym, u16 offset, u16 size */
#define CC_EIATTR_REQNTID 0x10u            /* u32[3] .reqntid */
#define CC_EIATTR_FRAME_SIZE 0x11u         /* global: u32 sym, u32 bytes */
#define CC_EIATTR_MIN_STACK_SIZE 0x12u     /* global: u32 sym, u32 bytes */
#define CC_EIATTR_KPARAM_INFO 0x17u        /* one record per kernel parameter */
#define CC_EIATTR_CBANK_PARAM_SIZE 0x19u   /* u16 parameter bytes */
#define CC_EIATTR_MAXREG_COUNT 0x1bu       /* u16 register cap ptxas honoured */
#define CC_EIATTR_EXIT_INSTR_OFFSETS 0x1cu
#define CC_EIATTR_CRS_STACK_SIZE 0x1eu
#define CC_EIATTR_MAX_STACK_SIZE 0x23u     /* global: u32 sym, u32 bytes */
#define CC_EIATTR_COOP_GROUP_INSTR_OFFSETS 0x28u
#define CC_EIATTR_COOP_GROUP_MASK_REGIDS 0x29u
#define CC_EIATTR_REGCOUNT 0x2fu           /* global: u32 sym, u32 registers */
#define CC_EIATTR_SW_WAR 0x36u
#define CC_EIATTR_CUDA_API_VERSION 0x37u
#define CC_EIATTR_NUM_MBARRIERS 0x38u
#define CC_EIATTR_CTA_PER_CLUSTER 0x3du    /* u32[3] __cluster_dims__ */
#define CC_EIATTR_EXPLICIT_CLUSTER 0x3eu
#define CC_EIATTR_MAX_CLUSTER_RANK 0x3fu   /* u32, __launch_bounds__ third argument */
#define CC_EIATTR_NUM_BARRIERS 0x4cu       /* u8 */
#define CC_EIATTR_SPARSE_MMA_MASK 0x50u

typedef struct cc_nvinfo_record {
    uint32_t format;   /* CC_EIFMT_* */
    uint32_t attr;     /* attribute id */
    uint32_t value;    /* BVAL/HVAL value; SVAL size */
    const unsigned char *data; /* SVAL data (value bytes), else NULL */
    size_t offset;     /* of the record in the section */
} cc_nvinfo_record;

typedef struct cc_nvinfo_iter {
    const unsigned char *p;
    size_t size, pos;
    int failed;
} cc_nvinfo_iter;

void cc_nvinfo_begin(cc_nvinfo_iter *it, const void *data, size_t size);
/* 1 = *rec filled; 0 = end; -1 = malformed record (err says where); stays failed. */
int cc_nvinfo_next(cc_nvinfo_iter *it, cc_nvinfo_record *rec, char *err, size_t errlen);
/* "EIATTR_REGCOUNT", or NULL for an id cucheck has no name for. */
const char *cc_nvinfo_attr_name(uint32_t attr);
/* u32 at index i of an SVAL record's data; 0 if out of range. */
uint32_t cc_nvinfo_u32(const cc_nvinfo_record *rec, uint32_t i);

#endif
