/* capture_calls_test: the agent's count of stream captures that may be open
 * (src/agent/core/capture_calls.c): a begin counts up at its API enter, an end counts down at its
 * exit and never below zero, runtime and driver forms both count, other calls and the other
 * callback sites change nothing (test agent.capture_calls). */
#include "agent/core/agent.h"
#include "check.h"

#define RT SANITIZER_CB_DOMAIN_RUNTIME_API
#define DRV SANITIZER_CB_DOMAIN_DRIVER_API

int main(void)
{
    int begin = -1;
    /* cudaStreamBeginCapture begins a capture */
    CHECK(cc_agent_capture_call(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture, &begin) &&
          begin == 1);
    /* cuStreamEndCapture ends one */
    CHECK(cc_agent_capture_call(DRV, SANITIZER_CBID_DRIVER_API_cuStreamEndCapture, &begin) &&
          begin == 0);
    /* a launch is not a capture call */
    CHECK(!cc_agent_capture_call(RT, SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel, &begin));
    /* another domain's id is not taken for a capture call */
    CHECK(!cc_agent_capture_call(SANITIZER_CB_DOMAIN_LAUNCH,
                                 SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture, &begin));

    /* no capture at the start */
    CHECK(!cc_agent_captures_open());
    cc_agent_capture_count(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture, 0);
    /* a begin's exit does not count */
    CHECK(!cc_agent_captures_open());
    cc_agent_capture_count(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture, 1);
    /* a begin counts at its enter */
    CHECK(cc_agent_captures_open());
    cc_agent_capture_count(DRV, SANITIZER_CBID_DRIVER_API_cuStreamBeginCapture_v2, 1);
    cc_agent_capture_count(DRV, SANITIZER_CBID_DRIVER_API_cuStreamEndCapture, 1);
    cc_agent_capture_count(DRV, SANITIZER_CBID_DRIVER_API_cuStreamEndCapture, 0);
    /* two begins and one end leave one open */
    CHECK(cc_agent_captures_open());
    cc_agent_capture_count(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamEndCapture, 0);
    /* the second end closes the count */
    CHECK(!cc_agent_captures_open());
    cc_agent_capture_count(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamEndCapture, 0);
    cc_agent_capture_count(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture, 1);
    /* an extra end does not take the count below zero */
    CHECK(cc_agent_captures_open());
    TEST_MAIN_END();
}
