/* memcheck's device checks beyond the global table, agent side: which instruction classes
 * memcheck patches, the shared/local windows of a launch (from the kernel's cubin, cached per
 * function) written into the launch header, and the per-context device-heap table that
 * device-side malloc/free patches fill across launches. The instrumentation manager
 * (instr_*.c) calls these; every function here takes its own lock. */
#ifndef CUCHECK_AGENT_MC_WINDOWS_H
#define CUCHECK_AGENT_MC_WINDOWS_H

#include <stddef.h>
#include <sanitizer.h>
#include "patch_records.h"

typedef struct cc_mc_patch_class {
    Sanitizer_InstructionId id;
    const char *fn;               /* CC_PATCH_FN_MC_* */
} cc_mc_patch_class;

/* The instruction classes memcheck patches (*out gets the array); the same in both modes: in
 * adaptive mode a module is patched only while its launches need checks. */
size_t cc_mc_patch_classes(const cc_mc_patch_class **out);

/* 1 if every launch of this module must run checked: it calls device-side malloc/free, and a
 * block the heap table never saw would later read as out of bounds. */
int cc_mc_module_needs_every_launch(const void *cubin, size_t cubin_size);

/* Fill the windows and the heap of a checked launch's header (hdr already has magic, flags,
 * table). cubin: the launch's module's cubin (NULL: no shared window check). The heap table is
 * created at the context's first checked launch (sanitizerAlloc, zeroed on d->hStream). */
void cc_mc_launch_fill_windows(cc_mc_launch *hdr, const Sanitizer_LaunchData *d,
                               const void *cubin, size_t cubin_size);

/* At an API exit (its domain and id; ctx: the call's context): a call that sets a context
 * limit (cuCtxSetLimit, cudaDeviceSetLimit) makes the cached stack limits stale; a context whose stack limit is not
 * cached (or stale) has it read here (cuCtxGetLimit), never in a launch callback, where the
 * driver's launch lock is held. */
void cc_mc_windows_on_api(Sanitizer_CallbackDomain domain, Sanitizer_CallbackId cbid,
                          CUcontext ctx);

/* Forget cached windows of a module being unloaded / the heap table of a context going away
 * (its memory goes with it). */
void cc_mc_windows_on_module_unload(CUmodule module);
void cc_mc_heap_on_context_destroy(CUcontext ctx);

/* Device-heap tables created and launches that found no window facts (for notes/tests). */
void cc_mc_windows_stats(size_t *heaps, unsigned long long *no_window);

#endif
