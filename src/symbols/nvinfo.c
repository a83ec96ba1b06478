/* .nv.info record iteration (bounds-checked) and the names of the attribute ids cucheck knows. */
#include "symbols/nvinfo.h"
#include "symbols/elf.h"

#include <stdio.h>

void cc_nvinfo_begin(cc_nvinfo_iter *it, const void *data, size_t size)
{
    it->p = data;
    it->size = data ? size : 0;
    it->pos = 0;
    it->failed = 0;
}

int cc_nvinfo_next(cc_nvinfo_iter *it, cc_nvinfo_record *rec, char *err, size_t errlen)
{
    if (it->failed)
        return -1;
    if (it->pos >= it->size)
        return 0;
    if (it->size - it->pos < 4) {
        snprintf(err, errlen, ".nv.info offset %zu: truncated record header", it->pos);
        it->failed = 1;
        return -1;
    }
    const unsigned char *h = it->p + it->pos;
    rec->format = h[0];
    rec->attr = h[1];
    rec->offset = it->pos;
    rec->data = NULL;
    switch (rec->format) {
    case CC_EIFMT_NVAL:
        rec->value = 0;
        it->pos += 4;
        return 1;
    case CC_EIFMT_BVAL:
        rec->value = h[2];
        it->pos += 4;
        return 1;
    case CC_EIFMT_HVAL:
        rec->value = cc_le16(h + 2);
        it->pos += 4;
        return 1;
    case CC_EIFMT_SVAL:
        rec->value = cc_le16(h + 2);
        if (rec->value > it->size - it->pos - 4) {
            snprintf(err, errlen, ".nv.info offset %zu: attribute 0x%02x claims %u bytes, %zu left",
                     it->pos, rec->attr, rec->value, it->size - it->pos - 4);
            it->failed = 1;
            return -1;
        }
        rec->data = h + 4;
        it->pos += 4 + (size_t)rec->value;
        return 1;
    default:
        snprintf(err, errlen, ".nv.info offset %zu: unknown record format %u", it->pos,
                 rec->format);
        it->failed = 1;
        return -1;
    }
}

uint32_t cc_nvinfo_u32(const cc_nvinfo_record *rec, uint32_t i)
{
    if (!rec->data || ((uint64_t)i + 1) * 4 > rec->value)
        return 0;
    return cc_le32(rec->data + (size_t)i * 4);
}

const char *cc_nvinfo_attr_name(uint32_t attr)
{
    switch (attr) {
    case CC_EIATTR_CTAIDZ_USED: return "EIATTR_CTAIDZ_USED";
    case CC_EIATTR_MAX_THREADS: return "EIATTR_MAX_THREADS";
    case CC_EIATTR_PARAM_CBANK: return "EIATTR_PARAM_CBANK";
    case CC_EIATTR_REQNTID: return "EIATTR_REQNTID";
    case CC_EIATTR_FRAME_SIZE: return "EIATTR_FRAME_SIZE";
    case CC_EIATTR_MIN_STACK_SIZE: return "EIATTR_MIN_STACK_SIZE";
    case CC_EIATTR_KPARAM_INFO: return "EIATTR_KPARAM_INFO";
    case CC_EIATTR_CBANK_PARAM_SIZE: return "EIATTR_CBANK_PARAM_SIZE";
    case CC_EIATTR_MAXREG_COUNT: return "EIATTR_MAXREG_COUNT";
    case CC_EIATTR_EXIT_INSTR_OFFSETS: return "EIATTR_EXIT_INSTR_OFFSETS";
    case CC_EIATTR_CRS_STACK_SIZE: return "EIATTR_CRS_STACK_SIZE";
    case CC_EIATTR_MAX_STACK_SIZE: return "EIATTR_MAX_STACK_SIZE";
    case CC_EIATTR_COOP_GROUP_INSTR_OFFSETS: return "EIATTR_COOP_GROUP_INSTR_OFFSETS";
    case CC_EIATTR_COOP_GROUP_MASK_REGIDS: return "EIATTR_COOP_GROUP_MASK_REGIDS";
    case CC_EIATTR_REGCOUNT: return "EIATTR_REGCOUNT";
    case CC_EIATTR_SW_WAR: return "EIATTR_SW_WAR";
    case CC_EIATTR_CUDA_API_VERSION: return "EIATTR_CUDA_API_VERSION";
    case CC_EIATTR_NUM_MBARRIERS: return "EIATTR_NUM_MBARRIERS";
    case CC_EIATTR_CTA_PER_CLUSTER: return "EIATTR_CTA_PER_CLUSTER";
    case CC_EIATTR_EXPLICIT_CLUSTER: return "EIATTR_EXPLICIT_CLUSTER";
    case CC_EIATTR_MAX_CLUSTER_RANK: return "EIATTR_MAX_CLUSTER_RANK";
    case CC_EIATTR_NUM_BARRIERS: return "EIATTR_NUM_BARRIERS";
    case CC_EIATTR_SPARSE_MMA_MASK: return "EIATTR_SPARSE_MMA_MASK";
    default: return NULL;
    }
}
