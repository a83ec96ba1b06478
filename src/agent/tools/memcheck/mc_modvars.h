/* memcheck's module variables, agent side: a module's `__device__`, `__constant__` and
 * `__managed__` variables, listed from its cubin when it loads (symbols/modvars.h, no driver
 * call: the load callback runs with the driver's locks held), their device addresses asked of
 * the driver (cuModuleGetGlobal) at a later API exit, where the thread holds no driver lock and
 * no agent lock, and one CC_EV_MODULE_VAR event emitted per variable. Every function takes its
 * own lock and makes no driver call under it. memcheck's plug-in (memcheck_plugin.c) calls them
 * from the callbacks named below. */
#ifndef CUCHECK_AGENT_MC_MODVARS_H
#define CUCHECK_AGENT_MC_MODVARS_H

#include <sanitizer.h>

/* SANITIZER_CBID_RESOURCE_MODULE_LOADED (the plug-in's on_resource): queue the module's
 * variables, names copied (the cubin is the driver's and goes with the callback). */
void cc_mc_modvars_module_loaded(const Sanitizer_ResourceModuleData *d);
/* SANITIZER_CBID_RESOURCE_MODULE_UNLOAD_STARTING: forget the module if it is still queued. */
void cc_mc_modvars_module_unloading(CUmodule module);
/* SANITIZER_CBID_RESOURCE_CONTEXT_DESTROY_STARTING: forget the context's queued modules. */
void cc_mc_modvars_context_destroying(CUcontext ctx);
/* At an API exit (the plug-in's on_api with the exit site), before the records of that exit are
 * drained: resolve every queued module (cuCtxPushCurrent of its context, cuModuleGetGlobal per
 * variable, cuCtxPopCurrent) and emit its variables. The driver calls it makes come back
 * through the callbacks; a thread inside it returns at once. Returns the events emitted. */
unsigned cc_mc_modvars_resolve(void);

#endif
