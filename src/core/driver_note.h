/* The note a process's report carries when no CUDA driver could be loaded in it (the agent
 * writes it at exit: entry/driver_presence.c), and the run tool's note for a process without
 * CUDA work, which the CLI leaves out when the first explains it (cli/output.c). */
#ifndef CUCHECK_CORE_DRIVER_NOTE_H
#define CUCHECK_CORE_DRIVER_NOTE_H

/* Followed by ": <the loader's reason>; ..." */
#define CC_NOTE_NO_DRIVER "no CUDA driver (libcuda.so.1) could be loaded"
#define CC_NOTE_NO_CUDA_CALLS                                                                  \
    "run: this process made no CUDA calls (no context, launch, copy or allocation was seen)"

#endif
