/* streamcheck --mode api on CUPTI (see cupti_api.h): subscribing, enabling only the driver calls,
 * resource and synchronize callbacks the happens-before model needs, and decoding each driver
 * call's parameters (CUPTI's generated_cuda_meta.h) into the bridge's plain records: launches
 * (cuLaunchKernel, cuLaunchCooperativeKernel, cuLaunchKernelEx), copies and memsets of linear
 * memory, events, allocations (device, managed, pinned host, stream-ordered, virtual), graph
 * launches (kernel nodes of the graph the executable graph was instantiated from). Copies of
 * CUDA arrays and batched copies are not decoded (counted in a note). */
#include "agent/backends/cupti/cupti_api.h"

#include <stdlib.h>
#include <string.h>
#include "core/options.h"
#include "core/agent_env.h"
#include "agent/backends/cupti/cupti_backend.h"

#ifndef CC_HAVE_CUPTI_HEADERS
int cc_capi_start(void)
{
    return -1;
}
#else
#include <pthread.h>
#include <stdatomic.h>
/* cupti.h brings generated_cuda_meta.h: the driver calls' parameter structs */

void *cc_agent_driver_symbol(const char *name); /* driver_symbol.c (agent.h is Sanitizer's) */

static CUpti_SubscriberHandle cc_capi_sub;
static _Thread_local int cc_capi_in_callback;
static atomic_uint cc_capi_undecoded; /* array or batched copies, graph nodes not decoded */

/* ---- driver entry points the decoding calls (resolved once) ---- */

static struct {
    pthread_once_t once;
    CUresult (*ctx_get_device)(CUdevice *);
    CUresult (*ctx_get_device_v2)(CUdevice *, CUcontext);
    CUresult (*func_get_name)(const char **, CUfunction);
    CUresult (*pointer_attr)(void *, CUpointer_attribute, CUdeviceptr);
    CUresult (*graph_get_nodes)(CUgraph, CUgraphNode *, size_t *);
    CUresult (*node_get_type)(CUgraphNode, CUgraphNodeType *);
    CUresult (*kernel_node_params)(CUgraphNode, CUDA_KERNEL_NODE_PARAMS_v2 *);
} cc_drv = {.once = PTHREAD_ONCE_INIT};

#define CC_RESOLVE(field, name) \
    do { void *p_ = cc_agent_driver_symbol(name); memcpy(&cc_drv.field, &p_, sizeof p_); } while (0)

static void cc_drv_resolve(void)
{
    CC_RESOLVE(ctx_get_device, "cuCtxGetDevice");
    CC_RESOLVE(ctx_get_device_v2, "cuCtxGetDevice_v2");
    CC_RESOLVE(func_get_name, "cuFuncGetName");
    CC_RESOLVE(pointer_attr, "cuPointerGetAttribute");
    CC_RESOLVE(graph_get_nodes, "cuGraphGetNodes");
    CC_RESOLVE(node_get_type, "cuGraphNodeGetType");
    CC_RESOLVE(kernel_node_params, "cuGraphKernelNodeGetParams_v2");
}

static int cc_ctx_device(CUcontext ctx)
{
    static _Thread_local CUcontext last_ctx;
    static _Thread_local int last_dev = -1;
    if (ctx != NULL && ctx == last_ctx) {
        return last_dev;
    }
    pthread_once(&cc_drv.once, cc_drv_resolve);
    CUdevice d = -1;
    if (ctx != NULL && cc_drv.ctx_get_device_v2 != NULL &&
        cc_drv.ctx_get_device_v2(&d, ctx) == CUDA_SUCCESS) {
        /* d set */
    } else if (cc_drv.ctx_get_device == NULL || cc_drv.ctx_get_device(&d) != CUDA_SUCCESS) {
        d = -1;
    }
    last_ctx = ctx;
    last_dev = (int)d;
    return (int)d;
}

/* ---- launches ---- */

static void *cc_stream_of(CUstream s, int ptsz)
{
    return (s == NULL && ptsz) ? (void *)CU_STREAM_PER_THREAD : (void *)s;
}

static const char *cc_kernel_name(const CUpti_CallbackData *cd, CUfunction f)
{
    if (cd != NULL && cd->symbolName != NULL && cd->symbolName[0] != '\0') {
        return cd->symbolName;
    }
    pthread_once(&cc_drv.once, cc_drv_resolve);
    const char *n = NULL;
    if (f != NULL && cc_drv.func_get_name != NULL && cc_drv.func_get_name(&n, f) == CUDA_SUCCESS) {
        return n;
    }
    return NULL;
}

static void cc_launch_common(const CUpti_CallbackData *cd, CUfunction f, const unsigned grid[3],
                             const unsigned block[3], CUstream s, int ptsz, void **params,
                             void **extra, const CUlaunchConfig *config)
{
    cc_capi_launch l;
    memset(&l, 0, sizeof l);
    l.context = cd->context;
    l.stream = cc_stream_of(s, ptsz);
    l.function = f;
    l.name = cc_kernel_name(cd, f);
    for (int i = 0; i < 3; i++) {
        l.grid[i] = grid[i];
        l.block[i] = block[i];
        l.cluster[i] = 1;
    }
    for (unsigned i = 0; config != NULL && config->attrs != NULL && i < config->numAttrs; i++) {
        if (config->attrs[i].id == CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION) {
            l.cluster[0] = config->attrs[i].value.clusterDim.x;
            l.cluster[1] = config->attrs[i].value.clusterDim.y;
            l.cluster[2] = config->attrs[i].value.clusterDim.z;
        }
    }
    l.device = cc_ctx_device(cd->context);
    l.params = params;
    l.extra = extra;
    cc_capi_on_launch(&l);
}

static int cc_on_launch_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cd)
{
    const void *p = cd->functionParams;
    switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz: {
        const cuLaunchKernel_params *a = p;
        unsigned g[3] = {a->gridDimX, a->gridDimY, a->gridDimZ};
        unsigned b[3] = {a->blockDimX, a->blockDimY, a->blockDimZ};
        cc_launch_common(cd, a->f, g, b, a->hStream,
                         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz, a->kernelParams,
                         a->extra, NULL);
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz: {
        const cuLaunchCooperativeKernel_params *a = p;
        unsigned g[3] = {a->gridDimX, a->gridDimY, a->gridDimZ};
        unsigned b[3] = {a->blockDimX, a->blockDimY, a->blockDimZ};
        cc_launch_common(cd, a->f, g, b, a->hStream,
                         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
                         a->kernelParams, NULL, NULL);
        return 1;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx:
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
        const cuLaunchKernelEx_params *a = p;
        const CUlaunchConfig *c = a->config;
        if (c == NULL) {
            return 1;
        }
        unsigned g[3] = {c->gridDimX, c->gridDimY, c->gridDimZ};
        unsigned b[3] = {c->blockDimX, c->blockDimY, c->blockDimZ};
        cc_launch_common(cd, a->f, g, b, c->hStream,
                         cbid == CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz, a->kernelParams,
                         a->extra, c);
        return 1;
    }
    default:
        return 0;
    }
}

/* ---- copies ---- */

/* 1 for device memory (including managed), 0 for host memory, -1 unknown. */
static int cc_is_device_ptr(uint64_t p)
{
    pthread_once(&cc_drv.once, cc_drv_resolve);
    unsigned int type = 0;
    if (p == 0 || cc_drv.pointer_attr == NULL ||
        cc_drv.pointer_attr(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)p) !=
            CUDA_SUCCESS) {
        return p == 0 ? -1 : 0; /* unknown to CUDA: pageable host memory */
    }
    return type == CU_MEMORYTYPE_DEVICE || type == CU_MEMORYTYPE_ARRAY ? 1 : 0;
}

static uint32_t cc_dir_of(int src_dev, int dst_dev)
{
    if (src_dev < 0 || dst_dev < 0) {
        return CC_CAPI_DIR_UNKNOWN;
    }
    return src_dev ? (dst_dev ? CC_CAPI_D2D : CC_CAPI_D2H) : (dst_dev ? CC_CAPI_H2D : CC_CAPI_H2H);
}

static void cc_copy_1d(const CUpti_CallbackData *cd, uint64_t dst, uint64_t src, size_t n,
                       uint32_t dir, CUstream s, int async, int ptsz)
{
    cc_capi_copy c;
    memset(&c, 0, sizeof c);
    c.src_context = c.dst_context = cd->context;
    c.stream = cc_stream_of(s, ptsz);
    c.src = src;
    c.dst = dst;
    c.size = n;
    c.direction = dir != CC_CAPI_DIR_UNKNOWN ? dir
                                             : cc_dir_of(cc_is_device_ptr(src), cc_is_device_ptr(dst));
    c.is_async = (uint32_t)async;
    cc_capi_on_copy(&c);
}

static uint64_t cc_end_addr(CUmemorytype t, const void *host, CUdeviceptr dev)
{
    return t == CU_MEMORYTYPE_HOST ? (uint64_t)(uintptr_t)host : (uint64_t)dev;
}

static int cc_side_is_device(CUmemorytype t, uint64_t addr)
{
    switch (t) {
    case CU_MEMORYTYPE_HOST: return 0;
    case CU_MEMORYTYPE_DEVICE: return 1;
    case CU_MEMORYTYPE_UNIFIED: return cc_is_device_ptr(addr);
    default: return -1; /* arrays: not linear memory */
    }
}

static void cc_copy_2d(const CUpti_CallbackData *cd, const CUDA_MEMCPY2D *m, CUstream s,
                       int async, int ptsz)
{
    if (m == NULL) {
        return;
    }
    if (m->srcMemoryType == CU_MEMORYTYPE_ARRAY || m->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
        atomic_fetch_add(&cc_capi_undecoded, 1);
        return;
    }
    uint64_t src = cc_end_addr(m->srcMemoryType, m->srcHost, m->srcDevice);
    uint64_t dst = cc_end_addr(m->dstMemoryType, m->dstHost, m->dstDevice);
    cc_capi_copy c;
    memset(&c, 0, sizeof c);
    c.src_context = c.dst_context = cd->context;
    c.stream = cc_stream_of(s, ptsz);
    c.src = src + m->srcXInBytes + (uint64_t)m->srcY * m->srcPitch;
    c.dst = dst + m->dstXInBytes + (uint64_t)m->dstY * m->dstPitch;
    c.width = m->WidthInBytes;
    c.height = m->Height;
    c.depth = 1;
    c.size = (uint64_t)m->WidthInBytes * m->Height;
    c.src_pitch = m->srcPitch;
    c.dst_pitch = m->dstPitch;
    c.direction = cc_dir_of(cc_side_is_device(m->srcMemoryType, src),
                            cc_side_is_device(m->dstMemoryType, dst));
    c.is_async = (uint32_t)async;
    cc_capi_on_copy(&c);
}

static void cc_copy_3d(const CUpti_CallbackData *cd, const CUDA_MEMCPY3D *m, CUstream s,
                       int async, int ptsz)
{
    if (m == NULL) {
        return;
    }
    if (m->srcMemoryType == CU_MEMORYTYPE_ARRAY || m->dstMemoryType == CU_MEMORYTYPE_ARRAY) {
        atomic_fetch_add(&cc_capi_undecoded, 1);
        return;
    }
    uint64_t src = cc_end_addr(m->srcMemoryType, m->srcHost, m->srcDevice);
    uint64_t dst = cc_end_addr(m->dstMemoryType, m->dstHost, m->dstDevice);
    uint64_t src_slice = (uint64_t)m->srcPitch * (m->srcHeight ? m->srcHeight : m->Height);
    uint64_t dst_slice = (uint64_t)m->dstPitch * (m->dstHeight ? m->dstHeight : m->Height);
    cc_capi_copy c;
    memset(&c, 0, sizeof c);
    c.src_context = c.dst_context = cd->context;
    c.stream = cc_stream_of(s, ptsz);
    c.src = src + m->srcXInBytes + (uint64_t)m->srcY * m->srcPitch + (uint64_t)m->srcZ * src_slice;
    c.dst = dst + m->dstXInBytes + (uint64_t)m->dstY * m->dstPitch + (uint64_t)m->dstZ * dst_slice;
    c.width = m->WidthInBytes;
    c.height = m->Height;
    c.depth = m->Depth;
    c.size = (uint64_t)m->WidthInBytes * m->Height * (m->Depth ? m->Depth : 1);
    c.src_pitch = m->srcPitch;
    c.dst_pitch = m->dstPitch;
    c.direction = cc_dir_of(cc_side_is_device(m->srcMemoryType, src),
                            cc_side_is_device(m->dstMemoryType, dst));
    c.is_async = (uint32_t)async;
    cc_capi_on_copy(&c);
}

#define CC_CB(name) CUPTI_DRIVER_TRACE_CBID_##name

/* A one-dimensional copy call and its per-thread-default-stream twin (same parameters). */
#define CC_COPY_1D(cb, pt_cb, type, dst, src, dir, stream, async)                              \
    case CC_CB(cb):                                                                          \
    case CC_CB(pt_cb): {                                                                     \
        const type *a = p;                                                                   \
        cc_copy_1d(cd, (uint64_t)(uintptr_t)(dst), (uint64_t)(uintptr_t)(src), a->ByteCount, \
                   dir, stream, async, cbid == CC_CB(pt_cb));                                \
        return 1;                                                                            \
    }

static int cc_on_copy_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cd)
{
    const void *p = cd->functionParams;
    switch (cbid) {
    CC_COPY_1D(cuMemcpyHtoD_v2, cuMemcpyHtoD_v2_ptds, cuMemcpyHtoD_v2_params, a->dstDevice,
               a->srcHost, CC_CAPI_H2D, NULL, 0)
    CC_COPY_1D(cuMemcpyHtoDAsync_v2, cuMemcpyHtoDAsync_v2_ptsz, cuMemcpyHtoDAsync_v2_params,
               a->dstDevice, a->srcHost, CC_CAPI_H2D, a->hStream, 1)
    CC_COPY_1D(cuMemcpyDtoH_v2, cuMemcpyDtoH_v2_ptds, cuMemcpyDtoH_v2_params, a->dstHost,
               a->srcDevice, CC_CAPI_D2H, NULL, 0)
    CC_COPY_1D(cuMemcpyDtoHAsync_v2, cuMemcpyDtoHAsync_v2_ptsz, cuMemcpyDtoHAsync_v2_params,
               a->dstHost, a->srcDevice, CC_CAPI_D2H, a->hStream, 1)
    CC_COPY_1D(cuMemcpyDtoD_v2, cuMemcpyDtoD_v2_ptds, cuMemcpyDtoD_v2_params, a->dstDevice,
               a->srcDevice, CC_CAPI_D2D, NULL, 0)
    CC_COPY_1D(cuMemcpyDtoDAsync_v2, cuMemcpyDtoDAsync_v2_ptsz, cuMemcpyDtoDAsync_v2_params,
               a->dstDevice, a->srcDevice, CC_CAPI_D2D, a->hStream, 1)
    CC_COPY_1D(cuMemcpy, cuMemcpy_ptds, cuMemcpy_params, a->dst, a->src, CC_CAPI_DIR_UNKNOWN,
               NULL, 0)
    CC_COPY_1D(cuMemcpyAsync, cuMemcpyAsync_ptsz, cuMemcpyAsync_params, a->dst, a->src,
               CC_CAPI_DIR_UNKNOWN, a->hStream, 1)
    case CC_CB(cuMemcpyPeer):
    case CC_CB(cuMemcpyPeer_ptds): {
        const cuMemcpyPeer_params *a = p;
        cc_capi_copy c;
        memset(&c, 0, sizeof c);
        c.src_context = a->srcContext;
        c.dst_context = a->dstContext;
        c.api_context = cd->context;
        c.stream = cc_stream_of(NULL, cbid == CC_CB(cuMemcpyPeer_ptds));
        c.src = a->srcDevice;
        c.dst = a->dstDevice;
        c.size = a->ByteCount;
        c.direction = CC_CAPI_D2D;
        cc_capi_on_copy(&c);
        return 1;
    }
    case CC_CB(cuMemcpyPeerAsync):
    case CC_CB(cuMemcpyPeerAsync_ptsz): {
        const cuMemcpyPeerAsync_params *a = p;
        cc_capi_copy c;
        memset(&c, 0, sizeof c);
        c.src_context = a->srcContext;
        c.dst_context = a->dstContext;
        c.api_context = cd->context;
        c.stream = cc_stream_of(a->hStream, cbid == CC_CB(cuMemcpyPeerAsync_ptsz));
        c.src = a->srcDevice;
        c.dst = a->dstDevice;
        c.size = a->ByteCount;
        c.direction = CC_CAPI_D2D;
        c.is_async = 1;
        cc_capi_on_copy(&c);
        return 1;
    }
    case CC_CB(cuMemcpy2D_v2):
    case CC_CB(cuMemcpy2D_v2_ptds):
        cc_copy_2d(cd, ((const cuMemcpy2D_v2_params *)p)->pCopy, NULL, 0,
                   cbid == CC_CB(cuMemcpy2D_v2_ptds));
        return 1;
    case CC_CB(cuMemcpy2DUnaligned_v2):
    case CC_CB(cuMemcpy2DUnaligned_v2_ptds):
        cc_copy_2d(cd, ((const cuMemcpy2DUnaligned_v2_params *)p)->pCopy, NULL, 0,
                   cbid == CC_CB(cuMemcpy2DUnaligned_v2_ptds));
        return 1;
    case CC_CB(cuMemcpy2DAsync_v2):
    case CC_CB(cuMemcpy2DAsync_v2_ptsz): {
        const cuMemcpy2DAsync_v2_params *a = p;
        cc_copy_2d(cd, a->pCopy, a->hStream, 1, cbid == CC_CB(cuMemcpy2DAsync_v2_ptsz));
        return 1;
    }
    case CC_CB(cuMemcpy3D_v2):
    case CC_CB(cuMemcpy3D_v2_ptds):
        cc_copy_3d(cd, ((const cuMemcpy3D_v2_params *)p)->pCopy, NULL, 0,
                   cbid == CC_CB(cuMemcpy3D_v2_ptds));
        return 1;
    case CC_CB(cuMemcpy3DAsync_v2):
    case CC_CB(cuMemcpy3DAsync_v2_ptsz): {
        const cuMemcpy3DAsync_v2_params *a = p;
        cc_copy_3d(cd, a->pCopy, a->hStream, 1, cbid == CC_CB(cuMemcpy3DAsync_v2_ptsz));
        return 1;
    }
    case CC_CB(cuMemcpyBatchAsync):
    case CC_CB(cuMemcpyBatchAsync_ptsz):
    case CC_CB(cuMemcpyBatchAsync_v2):
    case CC_CB(cuMemcpyBatchAsync_v2_ptsz):
    case CC_CB(cuMemcpy3DBatchAsync):
    case CC_CB(cuMemcpy3DBatchAsync_ptsz):
    case CC_CB(cuMemcpy3DBatchAsync_v2):
    case CC_CB(cuMemcpy3DBatchAsync_v2_ptsz):
        atomic_fetch_add(&cc_capi_undecoded, 1);
        return 1;
    default:
        return 0;
    }
}

/* ---- memsets ---- */

static void cc_set(const CUpti_CallbackData *cd, CUdeviceptr dst, uint32_t value, uint32_t esize,
                   size_t width, size_t height, size_t pitch, CUstream s, int async, int ptsz)
{
    cc_capi_set m;
    memset(&m, 0, sizeof m);
    m.context = cd->context;
    m.stream = cc_stream_of(s, ptsz);
    m.address = dst;
    m.width = width;
    m.height = height;
    m.pitch = pitch;
    m.element_size = esize;
    m.value = value;
    m.is_async = (uint32_t)async;
    cc_capi_on_set(&m);
}

#define CC_SET_1D(cb, type, field, esize, async)                                              \
    case CC_CB(cb): {                                                                         \
        const type *a = p;                                                                    \
        cc_set(cd, a->dstDevice, a->field, esize, a->N, 1, 0, cc_set_stream_##async(a), async, \
               ptsz);                                                                         \
        return 1;                                                                             \
    }
#define CC_SET_2D(cb, type, field, esize, async)                                              \
    case CC_CB(cb): {                                                                         \
        const type *a = p;                                                                    \
        cc_set(cd, a->dstDevice, a->field, esize, a->Width, a->Height, a->dstPitch,           \
               cc_set_stream_##async(a), async, ptsz);                                        \
        return 1;                                                                             \
    }
#define cc_set_stream_0(a) ((CUstream)NULL)
#define cc_set_stream_1(a) ((a)->hStream)

static int cc_on_set_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cd)
{
    const void *p = cd->functionParams;
    int ptsz = 0;
    switch (cbid) { /* per-thread default stream variants */
    case CC_CB(cuMemsetD8_v2_ptds): case CC_CB(cuMemsetD16_v2_ptds):
    case CC_CB(cuMemsetD32_v2_ptds): case CC_CB(cuMemsetD2D8_v2_ptds):
    case CC_CB(cuMemsetD2D16_v2_ptds): case CC_CB(cuMemsetD2D32_v2_ptds):
    case CC_CB(cuMemsetD8Async_ptsz): case CC_CB(cuMemsetD16Async_ptsz):
    case CC_CB(cuMemsetD32Async_ptsz): case CC_CB(cuMemsetD2D8Async_ptsz):
    case CC_CB(cuMemsetD2D16Async_ptsz): case CC_CB(cuMemsetD2D32Async_ptsz):
        ptsz = 1;
        break;
    default:
        break;
    }
    switch (cbid) {
    CC_SET_1D(cuMemsetD8_v2, cuMemsetD8_v2_params, uc, 1, 0)
    CC_SET_1D(cuMemsetD8_v2_ptds, cuMemsetD8_v2_ptds_params, uc, 1, 0)
    CC_SET_1D(cuMemsetD16_v2, cuMemsetD16_v2_params, us, 2, 0)
    CC_SET_1D(cuMemsetD16_v2_ptds, cuMemsetD16_v2_ptds_params, us, 2, 0)
    CC_SET_1D(cuMemsetD32_v2, cuMemsetD32_v2_params, ui, 4, 0)
    CC_SET_1D(cuMemsetD32_v2_ptds, cuMemsetD32_v2_ptds_params, ui, 4, 0)
    CC_SET_1D(cuMemsetD8Async, cuMemsetD8Async_params, uc, 1, 1)
    CC_SET_1D(cuMemsetD8Async_ptsz, cuMemsetD8Async_ptsz_params, uc, 1, 1)
    CC_SET_1D(cuMemsetD16Async, cuMemsetD16Async_params, us, 2, 1)
    CC_SET_1D(cuMemsetD16Async_ptsz, cuMemsetD16Async_ptsz_params, us, 2, 1)
    CC_SET_1D(cuMemsetD32Async, cuMemsetD32Async_params, ui, 4, 1)
    CC_SET_1D(cuMemsetD32Async_ptsz, cuMemsetD32Async_ptsz_params, ui, 4, 1)
    CC_SET_2D(cuMemsetD2D8_v2, cuMemsetD2D8_v2_params, uc, 1, 0)
    CC_SET_2D(cuMemsetD2D8_v2_ptds, cuMemsetD2D8_v2_ptds_params, uc, 1, 0)
    CC_SET_2D(cuMemsetD2D16_v2, cuMemsetD2D16_v2_params, us, 2, 0)
    CC_SET_2D(cuMemsetD2D16_v2_ptds, cuMemsetD2D16_v2_ptds_params, us, 2, 0)
    CC_SET_2D(cuMemsetD2D32_v2, cuMemsetD2D32_v2_params, ui, 4, 0)
    CC_SET_2D(cuMemsetD2D32_v2_ptds, cuMemsetD2D32_v2_ptds_params, ui, 4, 0)
    CC_SET_2D(cuMemsetD2D8Async, cuMemsetD2D8Async_params, uc, 1, 1)
    CC_SET_2D(cuMemsetD2D8Async_ptsz, cuMemsetD2D8Async_ptsz_params, uc, 1, 1)
    CC_SET_2D(cuMemsetD2D16Async, cuMemsetD2D16Async_params, us, 2, 1)
    CC_SET_2D(cuMemsetD2D16Async_ptsz, cuMemsetD2D16Async_ptsz_params, us, 2, 1)
    CC_SET_2D(cuMemsetD2D32Async, cuMemsetD2D32Async_params, ui, 4, 1)
    CC_SET_2D(cuMemsetD2D32Async_ptsz, cuMemsetD2D32Async_ptsz_params, ui, 4, 1)
    default:
        return 0;
    }
}

/* ---- events, allocations (at the call's exit, when it succeeded, unless freeing) ---- */

static void cc_mem(int alloc, const CUpti_CallbackData *cd, uint64_t addr, uint64_t size,
                   uint32_t kind, CUstream s, int ptsz)
{
    cc_capi_mem m;
    memset(&m, 0, sizeof m);
    m.context = cd->context;
    m.stream = cc_stream_of(s, ptsz);
    m.address = addr;
    m.size = size;
    m.kind = kind;
    m.device = kind == CC_CAPI_MEM_VIRTUAL ? -1 : cc_ctx_device(cd->context);
    if (alloc) {
        cc_capi_on_alloc(&m);
    } else {
        cc_capi_on_free(&m);
    }
}

#define CC_OUT(ptr) ((ptr) != NULL ? (uint64_t)*(ptr) : 0)

static int cc_on_exit_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cd)
{
    const void *p = cd->functionParams;
    switch (cbid) {
    case CC_CB(cuEventRecord):
    case CC_CB(cuEventRecord_ptsz): {
        const cuEventRecord_params *a = p;
        cc_capi_on_event(CC_CAPI_EV_RECORD, cd->context, a->hEvent,
                         cc_stream_of(a->hStream, cbid == CC_CB(cuEventRecord_ptsz)));
        return 1;
    }
    case CC_CB(cuEventRecordWithFlags):
    case CC_CB(cuEventRecordWithFlags_ptsz): {
        const cuEventRecordWithFlags_params *a = p;
        cc_capi_on_event(CC_CAPI_EV_RECORD, cd->context, a->hEvent,
                         cc_stream_of(a->hStream, cbid == CC_CB(cuEventRecordWithFlags_ptsz)));
        return 1;
    }
    case CC_CB(cuStreamWaitEvent):
    case CC_CB(cuStreamWaitEvent_ptsz): {
        const cuStreamWaitEvent_params *a = p;
        cc_capi_on_event(CC_CAPI_EV_WAIT, cd->context, a->hEvent,
                         cc_stream_of(a->hStream, cbid == CC_CB(cuStreamWaitEvent_ptsz)));
        return 1;
    }
    case CC_CB(cuEventSynchronize):
        cc_capi_on_event(CC_CAPI_EV_SYNC, cd->context, ((const cuEventSynchronize_params *)p)->hEvent,
                         NULL);
        return 1;
    case CC_CB(cuEventCreate): {
        const cuEventCreate_params *a = p;
        cc_capi_on_event(CC_CAPI_EV_CREATE, cd->context, a->phEvent ? *a->phEvent : NULL, NULL);
        return 1;
    }
    case CC_CB(cuMemAlloc_v2): {
        const cuMemAlloc_v2_params *a = p;
        cc_mem(1, cd, CC_OUT(a->dptr), a->bytesize, CC_CAPI_MEM_DEVICE, NULL, 0);
        return 1;
    }
    case CC_CB(cuMemAllocPitch_v2): {
        const cuMemAllocPitch_v2_params *a = p;
        uint64_t pitch = a->pPitch != NULL ? *a->pPitch : a->WidthInBytes;
        cc_mem(1, cd, CC_OUT(a->dptr), pitch * a->Height, CC_CAPI_MEM_DEVICE, NULL, 0);
        return 1;
    }
    case CC_CB(cuMemAllocManaged): {
        const cuMemAllocManaged_params *a = p;
        cc_mem(1, cd, CC_OUT(a->dptr), a->bytesize, CC_CAPI_MEM_MANAGED, NULL, 0);
        return 1;
    }
    case CC_CB(cuMemAllocHost_v2): {
        const cuMemAllocHost_v2_params *a = p;
        cc_mem(1, cd, a->pp ? (uint64_t)(uintptr_t)*a->pp : 0, a->bytesize,
               CC_CAPI_MEM_HOST_PINNED, NULL, 0);
        return 1;
    }
    case CC_CB(cuMemHostAlloc): {
        const cuMemHostAlloc_params *a = p;
        cc_mem(1, cd, a->pp ? (uint64_t)(uintptr_t)*a->pp : 0, a->bytesize,
               (a->Flags & CU_MEMHOSTALLOC_DEVICEMAP) ? CC_CAPI_MEM_HOST_MAPPED
                                                      : CC_CAPI_MEM_HOST_PINNED, NULL, 0);
        return 1;
    }
    case CC_CB(cuMemHostRegister_v2): {
        const cuMemHostRegister_v2_params *a = p;
        cc_mem(1, cd, (uint64_t)(uintptr_t)a->p, a->bytesize,
               (a->Flags & CU_MEMHOSTREGISTER_DEVICEMAP) ? CC_CAPI_MEM_HOST_MAPPED
                                                         : CC_CAPI_MEM_HOST_PINNED, NULL, 0);
        return 1;
    }
    case CC_CB(cuMemAllocAsync):
    case CC_CB(cuMemAllocAsync_ptsz): {
        const cuMemAllocAsync_params *a = p;
        cc_mem(1, cd, CC_OUT(a->dptr), a->bytesize, CC_CAPI_MEM_ASYNC, a->hStream,
               cbid == CC_CB(cuMemAllocAsync_ptsz));
        return 1;
    }
    case CC_CB(cuMemAllocFromPoolAsync):
    case CC_CB(cuMemAllocFromPoolAsync_ptsz): {
        const cuMemAllocFromPoolAsync_params *a = p;
        cc_mem(1, cd, CC_OUT(a->dptr), a->bytesize, CC_CAPI_MEM_ASYNC, a->hStream,
               cbid == CC_CB(cuMemAllocFromPoolAsync_ptsz));
        return 1;
    }
    case CC_CB(cuMemAddressReserve): {
        const cuMemAddressReserve_params *a = p;
        cc_mem(1, cd, CC_OUT(a->ptr), a->size, CC_CAPI_MEM_VIRTUAL, NULL, 0);
        return 1;
    }
    case CC_CB(cuMemMap): {
        const cuMemMap_params *a = p;
        cc_mem(1, cd, a->ptr, a->size, CC_CAPI_MEM_DEVICE, NULL, 0);
        return 1;
    }
    default:
        return 0;
    }
}

/* Frees at the call's enter: the memory is still named, and work ordered after it is not yet. */
static int cc_on_free_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cd)
{
    const void *p = cd->functionParams;
    switch (cbid) {
    case CC_CB(cuMemFree_v2):
        cc_mem(0, cd, ((const cuMemFree_v2_params *)p)->dptr, 0, CC_CAPI_MEM_DEVICE, NULL, 0);
        return 1;
    case CC_CB(cuMemFreeHost):
        cc_mem(0, cd, (uint64_t)(uintptr_t)((const cuMemFreeHost_params *)p)->p, 0,
               CC_CAPI_MEM_HOST_PINNED, NULL, 0);
        return 1;
    case CC_CB(cuMemHostUnregister):
        cc_mem(0, cd, (uint64_t)(uintptr_t)((const cuMemHostUnregister_params *)p)->p, 0,
               CC_CAPI_MEM_HOST_PINNED, NULL, 0);
        return 1;
    case CC_CB(cuMemFreeAsync):
    case CC_CB(cuMemFreeAsync_ptsz): {
        const cuMemFreeAsync_params *a = p;
        cc_mem(0, cd, a->dptr, 0, CC_CAPI_MEM_ASYNC, a->hStream,
               cbid == CC_CB(cuMemFreeAsync_ptsz));
        return 1;
    }
    case CC_CB(cuMemAddressFree): {
        const cuMemAddressFree_params *a = p;
        cc_mem(0, cd, a->ptr, a->size, CC_CAPI_MEM_VIRTUAL, NULL, 0);
        return 1;
    }
    case CC_CB(cuMemUnmap): {
        const cuMemUnmap_params *a = p;
        cc_mem(0, cd, a->ptr, a->size, CC_CAPI_MEM_DEVICE, NULL, 0);
        return 1;
    }
    case CC_CB(cuEventDestroy_v2):
        cc_capi_on_event(CC_CAPI_EV_DESTROY, cd->context,
                         ((const cuEventDestroy_v2_params *)p)->hEvent, NULL);
        return 1;
    default:
        return 0;
    }
}

/* ---- graphs: executable graph -> the graph it was instantiated from ---- */

#define CC_GRAPH_MAP 256u
static struct {
    pthread_mutex_t lock;
    CUgraphExec exec[CC_GRAPH_MAP];
    CUgraph graph[CC_GRAPH_MAP];
    unsigned next;
} cc_graphs = {.lock = PTHREAD_MUTEX_INITIALIZER};

static void cc_graph_remember(CUgraphExec exec, CUgraph graph)
{
    pthread_mutex_lock(&cc_graphs.lock);
    unsigned i = cc_graphs.next++ % CC_GRAPH_MAP; /* the oldest entry goes */
    for (unsigned k = 0; k < CC_GRAPH_MAP; k++) {
        if (cc_graphs.exec[k] == exec) {
            i = k;
            break;
        }
    }
    cc_graphs.exec[i] = exec;
    cc_graphs.graph[i] = graph;
    pthread_mutex_unlock(&cc_graphs.lock);
}

static CUgraph cc_graph_of(CUgraphExec exec)
{
    CUgraph g = NULL;
    pthread_mutex_lock(&cc_graphs.lock);
    for (unsigned k = 0; k < CC_GRAPH_MAP && g == NULL; k++) {
        if (cc_graphs.exec[k] == exec) {
            g = cc_graphs.graph[k];
        }
    }
    pthread_mutex_unlock(&cc_graphs.lock);
    return g;
}

static void cc_on_graph_launch_call(const CUpti_CallbackData *cd, CUgraphExec exec, CUstream s,
                                    int ptsz)
{
    void *stream = cc_stream_of(s, ptsz);
    cc_capi_on_graph_launch(cd->context, stream, exec);
    pthread_once(&cc_drv.once, cc_drv_resolve);
    CUgraph g = cc_graph_of(exec);
    size_t n = 0;
    if (g == NULL || cc_drv.graph_get_nodes == NULL || cc_drv.node_get_type == NULL ||
        cc_drv.kernel_node_params == NULL || cc_drv.graph_get_nodes(g, NULL, &n) != CUDA_SUCCESS ||
        n == 0) {
        atomic_fetch_add(&cc_capi_undecoded, 1);
        return;
    }
    CUgraphNode *nodes = malloc(n * sizeof *nodes);
    if (nodes == NULL || cc_drv.graph_get_nodes(g, nodes, &n) != CUDA_SUCCESS) {
        free(nodes);
        atomic_fetch_add(&cc_capi_undecoded, 1);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        CUgraphNodeType t;
        if (cc_drv.node_get_type(nodes[i], &t) != CUDA_SUCCESS) {
            continue;
        }
        if (t != CU_GRAPH_NODE_TYPE_KERNEL) {
            if (t == CU_GRAPH_NODE_TYPE_MEMCPY || t == CU_GRAPH_NODE_TYPE_MEMSET ||
                t == CU_GRAPH_NODE_TYPE_GRAPH) {
                atomic_fetch_add(&cc_capi_undecoded, 1);
            }
            continue;
        }
        CUDA_KERNEL_NODE_PARAMS_v2 kp;
        memset(&kp, 0, sizeof kp);
        if (cc_drv.kernel_node_params(nodes[i], &kp) != CUDA_SUCCESS) {
            continue;
        }
        cc_capi_launch l;
        memset(&l, 0, sizeof l);
        l.context = cd->context;
        l.stream = stream;
        l.function = kp.func;
        l.name = cc_kernel_name(NULL, kp.func);
        l.grid[0] = kp.gridDimX;
        l.grid[1] = kp.gridDimY;
        l.grid[2] = kp.gridDimZ;
        l.block[0] = kp.blockDimX;
        l.block[1] = kp.blockDimY;
        l.block[2] = kp.blockDimZ;
        l.cluster[0] = l.cluster[1] = l.cluster[2] = 1;
        l.device = cc_ctx_device(cd->context);
        l.params = kp.kernelParams;
        l.extra = kp.extra;
        cc_capi_on_graph_kernel(exec, nodes[i], &l);
    }
    free(nodes);
}

/* ---- stream capture: work on a capturing stream is recorded into a graph, not run (the
 * happens-before engine skips it, and follows streams that join the capture) ---- */

static int cc_on_capture_call(CUpti_CallbackId cbid, const CUpti_CallbackData *cd, CUresult r)
{
    const void *p = cd->functionParams;
    switch (cbid) {
    case CC_CB(cuStreamBeginCapture):
    case CC_CB(cuStreamBeginCapture_ptsz): { /* the first (CUDA 10.0) form: no mode */
        const cuStreamBeginCapture_params *a = p;
        if (r == CUDA_SUCCESS) {
            cc_capi_on_capture(1, cd->context,
                               cc_stream_of(a->hStream, cbid == CC_CB(cuStreamBeginCapture_ptsz)),
                               NULL, 0, 0);
        }
        return 1;
    }
    case CC_CB(cuStreamBeginCapture_v2):
    case CC_CB(cuStreamBeginCapture_v2_ptsz): {
        const cuStreamBeginCapture_v2_params *a = p;
        if (r == CUDA_SUCCESS) {
            cc_capi_on_capture(1, cd->context,
                               cc_stream_of(a->hStream,
                                            cbid == CC_CB(cuStreamBeginCapture_v2_ptsz)),
                               NULL, (uint32_t)a->mode, 0);
        }
        return 1;
    }
    case CC_CB(cuStreamBeginCaptureToGraph):
    case CC_CB(cuStreamBeginCaptureToGraph_ptsz): {
        const cuStreamBeginCaptureToGraph_params *a = p;
        if (r == CUDA_SUCCESS) {
            cc_capi_on_capture(1, cd->context,
                               cc_stream_of(a->hStream,
                                            cbid == CC_CB(cuStreamBeginCaptureToGraph_ptsz)),
                               NULL, (uint32_t)a->mode, 0);
        }
        return 1;
    }
    case CC_CB(cuStreamEndCapture):
    case CC_CB(cuStreamEndCapture_ptsz): { /* ended, successfully or not */
        const cuStreamEndCapture_params *a = p;
        cc_capi_on_capture(0, cd->context,
                           cc_stream_of(a->hStream, cbid == CC_CB(cuStreamEndCapture_ptsz)),
                           a->phGraph != NULL && r == CUDA_SUCCESS ? *a->phGraph : NULL, 0,
                           (int)r);
        return 1;
    }
    default:
        return 0;
    }
}

/* ---- the callback ---- */

static void cc_on_driver(CUpti_CallbackId cbid, const CUpti_CallbackData *cd)
{
    int enter = cd->callbackSite == CUPTI_API_ENTER;
    cc_capi_on_api(enter, cbid, cd->functionName, cd->functionParams, cd->functionReturnValue,
                   cd->context);
    if (cd->functionParams == NULL) {
        return;
    }
    if (enter) {
        if (cc_on_launch_call(cbid, cd) || cc_on_copy_call(cbid, cd) || cc_on_set_call(cbid, cd) ||
            cc_on_free_call(cbid, cd)) {
            return;
        }
        if (cbid == CC_CB(cuGraphLaunch) || cbid == CC_CB(cuGraphLaunch_ptsz)) {
            const cuGraphLaunch_params *a = cd->functionParams;
            cc_on_graph_launch_call(cd, a->hGraph, a->hStream,
                                    cbid == CC_CB(cuGraphLaunch_ptsz));
        }
        return;
    }
    CUresult result = cd->functionReturnValue != NULL ? *(const CUresult *)cd->functionReturnValue
                                                      : CUDA_ERROR_UNKNOWN;
    if (cc_on_capture_call(cbid, cd, result) || result != CUDA_SUCCESS) {
        return;
    }
    cc_on_exit_call(cbid, cd);
}

static void cc_on_resource(CUpti_CallbackId cbid, const CUpti_ResourceData *r)
{
    switch (cbid) {
    case CUPTI_CBID_RESOURCE_CONTEXT_CREATED:
        cc_capi_on_context(1, r->context, cc_ctx_device(r->context));
        break;
    case CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING:
        cc_capi_on_context(0, r->context, -1);
        break;
    case CUPTI_CBID_RESOURCE_STREAM_CREATED:
        cc_capi_on_stream(1, r->context, r->resourceHandle.stream);
        break;
    case CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING:
        cc_capi_on_stream(0, r->context, r->resourceHandle.stream);
        break;
    case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED: {
        const CUpti_GraphData *g = r->resourceDescriptor;
        if (g != NULL) {
            cc_graph_remember(g->graphExec, g->graph);
        }
        break;
    }
    default:
        break;
    }
}

static void CUPTIAPI cc_capi_callback(void *user, CUpti_CallbackDomain domain,
                                      CUpti_CallbackId cbid, const void *data)
{
    (void)user;
    if (cc_capi_in_callback || data == NULL || cc_capi_is_idle()) {
        return;
    }
    cc_capi_in_callback = 1;
    uint64_t t0 = cc_capi_self_time_on() ? cc_capi_self_time_now() : 0;
    switch (domain) {
    case CUPTI_CB_DOMAIN_DRIVER_API:
        cc_on_driver(cbid, data);
        break;
    case CUPTI_CB_DOMAIN_RESOURCE:
        cc_on_resource(cbid, data);
        break;
    case CUPTI_CB_DOMAIN_SYNCHRONIZE: {
        const CUpti_SynchronizeData *s = data;
        cc_capi_on_sync(s->context, s->stream,
                        cbid == CUPTI_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED);
        break;
    }
    default:
        break;
    }
    if (t0 != 0) {
        /* The Sanitizer's domain numbers, so that the self-time report reads alike. */
        cc_capi_self_time_add(domain == CUPTI_CB_DOMAIN_DRIVER_API ? 1u
                              : domain == CUPTI_CB_DOMAIN_RESOURCE ? 3u : 4u, t0);
    }
    cc_capi_in_callback = 0;
}

/* The driver calls decoded above, plus the ones translate_api.c reads: queries, stream creation
 * (its flags), capture begin and end. */
static const CUpti_CallbackId cc_capi_calls[] = {
    CC_CB(cuLaunchKernel), CC_CB(cuLaunchKernel_ptsz), CC_CB(cuLaunchCooperativeKernel),
    CC_CB(cuLaunchCooperativeKernel_ptsz), CC_CB(cuLaunchKernelEx), CC_CB(cuLaunchKernelEx_ptsz),
    CC_CB(cuGraphLaunch), CC_CB(cuGraphLaunch_ptsz),
    CC_CB(cuMemcpyHtoD_v2), CC_CB(cuMemcpyHtoD_v2_ptds), CC_CB(cuMemcpyHtoDAsync_v2),
    CC_CB(cuMemcpyHtoDAsync_v2_ptsz), CC_CB(cuMemcpyDtoH_v2), CC_CB(cuMemcpyDtoH_v2_ptds),
    CC_CB(cuMemcpyDtoHAsync_v2), CC_CB(cuMemcpyDtoHAsync_v2_ptsz), CC_CB(cuMemcpyDtoD_v2),
    CC_CB(cuMemcpyDtoD_v2_ptds), CC_CB(cuMemcpyDtoDAsync_v2), CC_CB(cuMemcpyDtoDAsync_v2_ptsz),
    CC_CB(cuMemcpy), CC_CB(cuMemcpy_ptds), CC_CB(cuMemcpyAsync), CC_CB(cuMemcpyAsync_ptsz),
    CC_CB(cuMemcpyPeer), CC_CB(cuMemcpyPeer_ptds), CC_CB(cuMemcpyPeerAsync),
    CC_CB(cuMemcpyPeerAsync_ptsz), CC_CB(cuMemcpy2D_v2), CC_CB(cuMemcpy2D_v2_ptds),
    CC_CB(cuMemcpy2DUnaligned_v2), CC_CB(cuMemcpy2DUnaligned_v2_ptds), CC_CB(cuMemcpy2DAsync_v2),
    CC_CB(cuMemcpy2DAsync_v2_ptsz), CC_CB(cuMemcpy3D_v2), CC_CB(cuMemcpy3D_v2_ptds),
    CC_CB(cuMemcpy3DAsync_v2), CC_CB(cuMemcpy3DAsync_v2_ptsz), CC_CB(cuMemcpyBatchAsync),
    CC_CB(cuMemcpyBatchAsync_ptsz), CC_CB(cuMemcpyBatchAsync_v2), CC_CB(cuMemcpyBatchAsync_v2_ptsz),
    CC_CB(cuMemcpy3DBatchAsync), CC_CB(cuMemcpy3DBatchAsync_ptsz), CC_CB(cuMemcpy3DBatchAsync_v2),
    CC_CB(cuMemcpy3DBatchAsync_v2_ptsz),
    CC_CB(cuMemsetD8_v2), CC_CB(cuMemsetD8_v2_ptds), CC_CB(cuMemsetD16_v2),
    CC_CB(cuMemsetD16_v2_ptds), CC_CB(cuMemsetD32_v2), CC_CB(cuMemsetD32_v2_ptds),
    CC_CB(cuMemsetD8Async), CC_CB(cuMemsetD8Async_ptsz), CC_CB(cuMemsetD16Async),
    CC_CB(cuMemsetD16Async_ptsz), CC_CB(cuMemsetD32Async), CC_CB(cuMemsetD32Async_ptsz),
    CC_CB(cuMemsetD2D8_v2), CC_CB(cuMemsetD2D8_v2_ptds), CC_CB(cuMemsetD2D16_v2),
    CC_CB(cuMemsetD2D16_v2_ptds), CC_CB(cuMemsetD2D32_v2), CC_CB(cuMemsetD2D32_v2_ptds),
    CC_CB(cuMemsetD2D8Async), CC_CB(cuMemsetD2D8Async_ptsz), CC_CB(cuMemsetD2D16Async),
    CC_CB(cuMemsetD2D16Async_ptsz), CC_CB(cuMemsetD2D32Async), CC_CB(cuMemsetD2D32Async_ptsz),
    CC_CB(cuEventRecord), CC_CB(cuEventRecord_ptsz), CC_CB(cuEventRecordWithFlags),
    CC_CB(cuEventRecordWithFlags_ptsz), CC_CB(cuStreamWaitEvent), CC_CB(cuStreamWaitEvent_ptsz),
    CC_CB(cuEventSynchronize), CC_CB(cuCtxSynchronize), CC_CB(cuStreamSynchronize),
    CC_CB(cuStreamSynchronize_ptsz), CC_CB(cuEventCreate), CC_CB(cuEventDestroy_v2), CC_CB(cuEventQuery),
    CC_CB(cuStreamQuery), CC_CB(cuStreamQuery_ptsz), CC_CB(cuStreamCreate),
    CC_CB(cuStreamCreateWithPriority), CC_CB(cuStreamBeginCapture), CC_CB(cuStreamBeginCapture_ptsz),
    CC_CB(cuStreamBeginCapture_v2), CC_CB(cuStreamBeginCapture_v2_ptsz),
    CC_CB(cuStreamBeginCaptureToGraph), CC_CB(cuStreamBeginCaptureToGraph_ptsz),
    CC_CB(cuStreamEndCapture), CC_CB(cuStreamEndCapture_ptsz),
    CC_CB(cuMemAlloc_v2), CC_CB(cuMemAllocPitch_v2), CC_CB(cuMemAllocManaged),
    CC_CB(cuMemAllocHost_v2), CC_CB(cuMemHostAlloc), CC_CB(cuMemHostRegister_v2),
    CC_CB(cuMemAllocAsync), CC_CB(cuMemAllocAsync_ptsz), CC_CB(cuMemAllocFromPoolAsync),
    CC_CB(cuMemAllocFromPoolAsync_ptsz), CC_CB(cuMemAddressReserve), CC_CB(cuMemMap),
    CC_CB(cuMemFree_v2), CC_CB(cuMemFreeHost), CC_CB(cuMemHostUnregister), CC_CB(cuMemFreeAsync),
    CC_CB(cuMemFreeAsync_ptsz), CC_CB(cuMemAddressFree), CC_CB(cuMemUnmap),
};

static void cc_capi_report(void)
{
    unsigned n = atomic_load(&cc_capi_undecoded);
    if (n > 0) {
        cc_capi_note("streamcheck (CUPTI): %u copy call(s) of CUDA arrays or batches and graph "
                     "node(s) other than kernels were not decoded", n);
    }
}

int cc_capi_start(void)
{
    char err[512];
    if (cc_cupti_load(err, sizeof err) != 0) {
        cc_capi_note("streamcheck --mode api: CUPTI unavailable (%s): using the Compute "
                     "Sanitizer", err);
        return -1;
    }
    CUptiResult r = cc_cupti.Subscribe(&cc_capi_sub, cc_capi_callback, NULL);
    if (r != CUPTI_SUCCESS) {
        cc_capi_note("streamcheck --mode api: cuptiSubscribe failed (%s): using the Compute "
                     "Sanitizer", cc_cupti_result_string(r));
        return -1;
    }
    if (cc_capi_open_outputs() != 0) {
        cc_cupti.Unsubscribe(cc_capi_sub);
        return -2;
    }
    cc_capi_after_start();
    for (size_t i = 0; i < sizeof cc_capi_calls / sizeof cc_capi_calls[0]; i++) {
        cc_cupti.EnableCallback(1, cc_capi_sub, CUPTI_CB_DOMAIN_DRIVER_API, cc_capi_calls[i]);
    }
    static const CUpti_CallbackId resource[] = {
        CUPTI_CBID_RESOURCE_CONTEXT_CREATED, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING,
        CUPTI_CBID_RESOURCE_STREAM_CREATED, CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING,
        CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED,
    };
    for (size_t i = 0; i < sizeof resource / sizeof resource[0]; i++) {
        cc_cupti.EnableCallback(1, cc_capi_sub, CUPTI_CB_DOMAIN_RESOURCE, resource[i]);
    }
    cc_cupti.EnableCallback(1, cc_capi_sub, CUPTI_CB_DOMAIN_SYNCHRONIZE,
                            CUPTI_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED);
    cc_cupti.EnableCallback(1, cc_capi_sub, CUPTI_CB_DOMAIN_SYNCHRONIZE,
                            CUPTI_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED);
    atexit(cc_capi_report);
    cc_capi_note("streamcheck --mode api: events from CUPTI's callbacks (%s)", cc_cupti.path);
    return 0;
}
#endif
