/* Decoding of the version numbers CUDA libraries return from their version functions
 * (cudnnGetVersion, ncclGetVersion, cublasLtGetVersion, cuptiGetVersion). Pure; see compat.h. */
#include "doctor/compat.h"

static void split3(long long v, long long base, int *maj, int *min, int *patch)
{
    if (v < 0)
        v = 0;
    *maj = (int)(v / base);
    *min = (int)((v % base) / 100);
    *patch = (int)(v % 100);
}

void cc_doc_decode_cudnn(long long v, int *maj, int *min, int *patch)
{
    split3(v, v >= 90000 ? 10000 : 1000, maj, min, patch);
}

void cc_doc_decode_nccl(long long v, int *maj, int *min, int *patch)
{
    split3(v, v >= 10000 ? 10000 : 1000, maj, min, patch);
}

void cc_doc_decode_cublaslt(long long v, int *maj, int *min, int *patch)
{
    split3(v, 10000, maj, min, patch);
}

int cc_doc_cupti_cuda(long long v)
{
    /* Before CUDA 13 the CUPTI API version was a small counter (cupti_version.h history). */
    static const struct { int api, cuda; } table[] = {
        {13, CC_DOC_CUDA(11, 0)}, {14, CC_DOC_CUDA(11, 1)}, {15, CC_DOC_CUDA(11, 2)},
        {16, CC_DOC_CUDA(11, 5)}, {17, CC_DOC_CUDA(11, 6)}, {18, CC_DOC_CUDA(11, 8)},
        {19, CC_DOC_CUDA(12, 0)}, {20, CC_DOC_CUDA(12, 2)}, {21, CC_DOC_CUDA(12, 3)},
        {22, CC_DOC_CUDA(12, 4)}, {23, CC_DOC_CUDA(12, 5)}, {24, CC_DOC_CUDA(12, 6)},
        {25, CC_DOC_CUDA(12, 7)}, {26, CC_DOC_CUDA(12, 8)}, {27, CC_DOC_CUDA(12, 9)},
        {28, CC_DOC_CUDA(12, 9)},
    };
    if (v >= 100000) /* xxyyzz from CUDA 13.0 on */
        return CC_DOC_CUDA((int)(v / 10000), (int)((v / 100) % 100));
    for (unsigned i = 0; i < sizeof table / sizeof table[0]; i++)
        if (table[i].api == v)
            return table[i].cuda;
    return 0;
}
