/* run's agent half: exact attribution of asynchronous errors from the GPU core dump
 * (coredump_*.c) and from device progress marks (launch_progress.c): on every launch with
 * --progress on, on the listed launches in the CLI's second run (CUCHECK_PROGRESS_LAUNCHES). */
#include "agent/core/agent_plugin.h"
#include "agent/tools/run/coredump_agent.h"
#include "agent/tools/run/launch_progress.h"

static void run_init(void)
{
    cc_agent_coredump_setup();
    cc_progress_init();
}

static void run_on_sticky_error(void)
{
    cc_agent_coredump_on_sticky(); /* DEVICE_FAULT */
    cc_progress_on_sticky();       /* LAUNCH_PROGRESS */
}

const cc_agent_plugin cc_run_plugin = {
    .tool = "run",
    /* No event thread by default: on PyTorch's launch-bound tiny_kernels_step (H200) queuing
     * halved the launching thread's hand-on (431 -> 214 ns) but the step time did not follow
     * (1.00-1.20x the bare subscription over three sets of rounds, against 1.04-1.12x inline). */
    .init = run_init,
    .on_resource = cc_progress_on_resource,
    .on_launch = cc_progress_on_launch,
    .on_sticky_error = run_on_sticky_error,
};
