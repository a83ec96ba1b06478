/* Exact attribution of asynchronous device errors through the driver's lightweight GPU core
 * dump: enabled at agent start (before CUDA initializes) for the run tool, read when the first
 * sticky error surfaces, and turned into a CC_EV_DEVICE_FAULT event (see docs/agent.md,
 * "Attribution of asynchronous errors"). */
#ifndef CUCHECK_AGENT_COREDUMP_AGENT_H
#define CUCHECK_AGENT_COREDUMP_AGENT_H

/* Option of the run tool / environment variable: "on" enables the core dump (default "off":
 * the driver refuses it while the Sanitizer is attached; see docs/agent.md). */

/* coredump_setup.c: sets the driver's core dump variables for this process tree unless the
 * user (or another tool) set them, or the option is off. Call after the outputs are open. */
void cc_agent_coredump_setup(void);
/* The dump file this process's driver writes ("" when the agent did not enable dumps). */
const char *cc_agent_coredump_path(void);

/* coredump_read.c: at the first sticky error, read the dump (waiting briefly for the driver to
 * finish writing it) and emit CC_EV_DEVICE_FAULT. Later calls do nothing. */
void cc_agent_coredump_on_sticky(void);

#endif
