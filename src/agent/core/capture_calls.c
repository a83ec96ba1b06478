/* The API calls that begin and end a stream capture, and a process-wide count of captures that
 * may be in progress: while it is above zero, a wait for a stream the agent makes on its own
 * (a read-back, an upload followed by a wait) could end a capture in the global mode with an
 * error, so such waits are put off. Counted up before a capture can begin and down only after
 * one ended: a failed begin leaves the count high, which only puts waits off. */
#include <stdatomic.h>
#include "agent/core/agent.h"

static atomic_int cc_captures;

int cc_agent_capture_call(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid, int *begin)
{
    int b = 0, e = 0;
    if (domain == SANITIZER_CB_DOMAIN_RUNTIME_API) {
        b = cbid == SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture ||
            cbid == SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture_ptsz ||
            cbid == SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCaptureToGraph ||
            cbid == SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCaptureToGraph_ptsz;
        e = cbid == SANITIZER_CBID_RUNTIME_API_cudaStreamEndCapture ||
            cbid == SANITIZER_CBID_RUNTIME_API_cudaStreamEndCapture_ptsz;
    } else if (domain == SANITIZER_CB_DOMAIN_DRIVER_API) {
        b = cbid == SANITIZER_CBID_DRIVER_API_cuStreamBeginCapture ||
            cbid == SANITIZER_CBID_DRIVER_API_cuStreamBeginCapture_ptsz ||
            cbid == SANITIZER_CBID_DRIVER_API_cuStreamBeginCapture_v2 ||
            cbid == SANITIZER_CBID_DRIVER_API_cuStreamBeginCapture_v2_ptsz ||
            cbid == SANITIZER_CBID_DRIVER_API_cuStreamBeginCaptureToGraph ||
            cbid == SANITIZER_CBID_DRIVER_API_cuStreamBeginCaptureToGraph_ptsz;
        e = cbid == SANITIZER_CBID_DRIVER_API_cuStreamEndCapture ||
            cbid == SANITIZER_CBID_DRIVER_API_cuStreamEndCapture_ptsz;
    }
    *begin = b;
    return b || e;
}

void cc_agent_capture_count(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                            int enter)
{
    int begin;
    if (!cc_agent_capture_call(domain, cbid, &begin)) {
        return;
    }
    if (begin && enter) {
        atomic_fetch_add(&cc_captures, 1);
    } else if (!begin && !enter) {
        int c = atomic_load(&cc_captures);
        while (c > 0 && !atomic_compare_exchange_weak(&cc_captures, &c, c - 1)) {
        }
    }
}

int cc_agent_captures_open(void)
{
    return atomic_load_explicit(&cc_captures, memory_order_relaxed) > 0;
}
