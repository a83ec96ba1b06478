/* A kernel launch's arguments as the agent's tools read them: the launch API call's `args` /
 * `kernelParams` / `extra` (captured at the call's enter on the calling thread, valid until
 * the outermost launch call returns), a kernel's parameter layout from the driver
 * (cuFuncGetParamInfo, CUDA 12.4+, kept for the process's life) and the arguments laid out as
 * the kernel's parameter buffer. streamcheck's inferred access sets and memcheck's repeated-
 * launch test (mc_repeat.c) read them. */
#ifndef CUCHECK_AGENT_TOOLS_LAUNCH_ARGS_H
#define CUCHECK_AGENT_TOOLS_LAUNCH_ARGS_H

#include <stddef.h>
#include <stdint.h>
#include <sanitizer.h>
#include "core/ptr_infer.h"

#define CC_LAUNCH_PARAM_MAX 32768u /* largest parameter buffer CUDA allows (32764 bytes) */

/* A kernel's parameters: offset and size of each, by ordinal. name: NULL when the layout came
 * from the driver. */
typedef struct cc_launch_layout {
    char *name;
    cc_ptr_slot *slots;
    uint32_t nslots;
} cc_launch_layout;

/* A tool's on_api hook calls this for every API callback: launch calls set this thread's
 * arguments at their enter (the innermost call that names any wins: the runtime's own driver
 * call names the same ones) and clear them when the outermost returns. */
void cc_launch_args_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                           const Sanitizer_CallbackData *d);
/* 1 and the arrays of the launch call in progress on this thread (not consumed yet), else 0. */
int cc_launch_args_current(void ***params, void ***extra);
/* The launch took its arguments: one launch per call. */
void cc_launch_args_consume(void);

/* f's layout from the driver, or NULL when it cannot say (or f has no parameters). Takes its
 * own lock; a driver call per parameter the first time f is asked about. */
const cc_launch_layout *cc_launch_layout_from_driver(CUfunction f, const char *tool);

/* The arguments laid out as the kernel's parameter buffer: the packed `extra` buffer itself,
 * or params[i] copied to layout k's offsets in buf (cap bytes), the padding between them zeroed.
 * NULL when unknown (an args array without a layout); *len its length. */
const unsigned char *cc_launch_args_lay_out(const cc_launch_layout *k, void **params,
                                            void **extra, unsigned char *buf, size_t cap,
                                            size_t *len);

#endif
