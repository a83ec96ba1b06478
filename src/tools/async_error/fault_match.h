/* Asynchronous-error attribution's use of the GPU core dump fault (CC_EV_DEVICE_FAULT): keeping
 * a copy of it, finding the launch it names among the launches in flight, and describing where
 * it faulted. */
#ifndef CUCHECK_TOOLS_ASYNC_ERROR_FAULT_MATCH_H
#define CUCHECK_TOOLS_ASYNC_ERROR_FAULT_MATCH_H

#include <stddef.h>
#include "cucheck/finding.h"
#include "tools/async_error/inflight.h"

typedef struct cc_async_fault {
    int valid;
    cc_ev_device_fault ev;   /* strings point into the buffers below */
    char *kernel;            /* the whole mangled name (a long template kernel's is thousands of
                              * characters, and it is matched against the launches' names) */
    char file[512], exception[128], dump[1024];
} cc_async_fault;

/* Copy the event (the first one only: later faults are echoes of the same sticky error). */
void cc_async_fault_keep(cc_async_fault *f, const cc_ev_device_fault *ev);
/* Release what keep copied. */
void cc_async_fault_free(cc_async_fault *f);

/* The launch of pending[0..n) that the fault names, or NULL. Matched by grid id first; if no
 * launch carries the grid id (an agent without it, graph nodes), by kernel name and grid and
 * block shape when exactly one launch has them. *how says which ("grid id", "kernel and
 * shape"). */
const cc_inflight_launch *cc_async_fault_match(const cc_async_fault *f,
                                             const cc_inflight_launch *pending, size_t n,
                                             const char **how);

/* "Warp - Illegal address at block (6,0,0) thread (77,0,0), pc 0x150, oob.cu:21". */
void cc_async_fault_describe(const cc_async_fault *f, char *buf, size_t len);

/* The finding's device location: the launch's kernel, id and stream plus the fault's block,
 * thread, pc and line. Strings point into f and l. */
void cc_async_fault_device_loc(const cc_async_fault *f, const cc_inflight_launch *l,
                             cc_device_loc *out);

#endif
