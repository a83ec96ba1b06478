/* The agent as an NVTX injection library (NVTX v3's dynamic injection: the program's header-only
 * NVTX loads the library NVTX_INJECTION64_PATH names at its first call and asks it to fill the
 * function slots it implements). Only the memory extension (nvtx_mem.c) is implemented: heaps
 * and regions of sub-allocators go to instr/instr_suballoc.h; every other NVTX call stays the
 * no-op it is without a tool. */
#ifndef CUCHECK_AGENT_NVTX_INJECT_H
#define CUCHECK_AGENT_NVTX_INJECT_H

/* Make this agent the process's NVTX injection library: NVTX_INJECTION64_PATH is set to the
 * agent's own file unless it names another tool already (the user's tool wins: `tool` then says
 * in its report's notes that NVTX memory annotations were not read). Call before the program's
 * first NVTX call (the plug-in's init: the agent is preloaded). */
void cc_nvtx_attach(const char *tool);

#endif
