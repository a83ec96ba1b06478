/* capture_calls_test: the agent's count of stream captures that may be open
 * (src/agent/core/capture_calls.c): a begin counts up at its API enter, an end counts down at its
 * exit and never below zero, runtime and driver forms both count, other calls and the other
 * callback sites change nothing (test agent.capture_calls). */
#include <stdio.h>
#include "agent/core/agent.h"

static int failures;

#define EXPECT(cond, what)                                                                 \
    do {                                                                                   \
        if (!(cond)) {                                                                     \
            fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, what);                 \
            failures++;                                                                    \
        }                                                                                  \
    } while (0)

#define RT SANITIZER_CB_DOMAIN_RUNTIME_API
#define DRV SANITIZER_CB_DOMAIN_DRIVER_API

int main(void)
{
    int begin = -1;
    EXPECT(cc_agent_capture_call(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture, &begin) &&
               begin == 1,
           "cudaStreamBeginCapture begins a capture");
    EXPECT(cc_agent_capture_call(DRV, SANITIZER_CBID_DRIVER_API_cuStreamEndCapture, &begin) &&
               begin == 0,
           "cuStreamEndCapture ends one");
    EXPECT(!cc_agent_capture_call(RT, SANITIZER_CBID_RUNTIME_API_cudaLaunchKernel, &begin),
           "a launch is not a capture call");
    EXPECT(!cc_agent_capture_call(SANITIZER_CB_DOMAIN_LAUNCH,
                                  SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture, &begin),
           "another domain's id is not taken for a capture call");

    EXPECT(!cc_agent_captures_open(), "no capture at the start");
    cc_agent_capture_count(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture, 0);
    EXPECT(!cc_agent_captures_open(), "a begin's exit does not count");
    cc_agent_capture_count(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture, 1);
    EXPECT(cc_agent_captures_open(), "a begin counts at its enter");
    cc_agent_capture_count(DRV, SANITIZER_CBID_DRIVER_API_cuStreamBeginCapture_v2, 1);
    cc_agent_capture_count(DRV, SANITIZER_CBID_DRIVER_API_cuStreamEndCapture, 1);
    cc_agent_capture_count(DRV, SANITIZER_CBID_DRIVER_API_cuStreamEndCapture, 0);
    EXPECT(cc_agent_captures_open(), "two begins and one end leave one open");
    cc_agent_capture_count(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamEndCapture, 0);
    EXPECT(!cc_agent_captures_open(), "the second end closes the count");
    cc_agent_capture_count(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamEndCapture, 0);
    cc_agent_capture_count(RT, SANITIZER_CBID_RUNTIME_API_cudaStreamBeginCapture, 1);
    EXPECT(cc_agent_captures_open(), "an extra end does not take the count below zero");
    if (failures == 0) {
        printf("capture_calls_test: all passed\n");
    }
    return failures == 0 ? 0 : 1;
}
