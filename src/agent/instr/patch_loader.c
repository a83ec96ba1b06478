/* Loading the device patches: the embedded fatbin (or the file named by CUCHECK_PATCHES) is added
 * with sanitizerAddPatches once per context, when the instrumentation (instr_modules.c) first
 * patches a module of it; tools that instrument nothing never load them. The Sanitizer patching
 * calls are not thread-safe: every one of them runs under cc_patch_mutex. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include "agent/core/agent.h"
#include "core/agent_env.h"
#include "patch_records.h"
#include "embedded_patches.h"

#define CC_MAX_PATCHED_CONTEXTS 256

static pthread_mutex_t cc_patch_mutex = PTHREAD_MUTEX_INITIALIZER;
static CUcontext cc_patched_contexts[CC_MAX_PATCHED_CONTEXTS]; /* contexts with patches loaded */
static size_t cc_patched_count;
static int cc_patch_failure_noted;

int cc_agent_patches_embedded(void)
{
    return cc_patches_fatbin_size > 0;
}

int cc_agent_patches_available(void)
{
    const char *file = getenv(CC_ENV_PATCHES);
    return cc_agent_patches_embedded() || (file != NULL && file[0] != '\0');
}

static int cc_context_has_patches(CUcontext ctx)
{
    for (size_t i = 0; i < cc_patched_count; i++) {
        if (cc_patched_contexts[i] == ctx) {
            return 1;
        }
    }
    return 0;
}

/* Called with cc_patch_mutex held. 0 if the context has patches loaded afterwards. */
static int cc_load_patches_locked(CUcontext ctx)
{
    if (cc_context_has_patches(ctx)) {
        return 0;
    }
    if (cc_patched_count == CC_MAX_PATCHED_CONTEXTS) {
        if (!cc_patch_failure_noted) {
            cc_patch_failure_noted = 1;
            cc_agent_note("more than %d CUDA contexts: later ones get no device patches",
                          CC_MAX_PATCHED_CONTEXTS);
        }
        return -1;
    }
    const char *file = getenv(CC_ENV_PATCHES);
    SanitizerResult r;
    if (file != NULL && file[0] != '\0') {
        r = sanitizerAddPatchesFromFile(file, ctx);
    } else if (cc_patches_fatbin_size > 0) {
        r = sanitizerAddPatches(cc_patches_fatbin, ctx);
    } else {
        return -1; /* built without patches; said once at init */
    }
    if (r != SANITIZER_SUCCESS) {
        if (!cc_patch_failure_noted) {
            cc_patch_failure_noted = 1;
            const char *why = NULL;
            if (sanitizerGetResultString(r, &why) != SANITIZER_SUCCESS || why == NULL) {
                why = "unknown error";
            }
            cc_agent_note("cannot load device patches%s%s: %s", file ? " from " : "",
                          file ? file : "", why);
        }
        return -1;
    }
    cc_patched_contexts[cc_patched_count++] = ctx;
    cc_agent_note("device patches loaded into context %p", (void *)ctx);
    return 0;
}

int cc_agent_patches_load(CUcontext ctx)
{
    pthread_mutex_lock(&cc_patch_mutex);
    int rc = cc_load_patches_locked(ctx);
    pthread_mutex_unlock(&cc_patch_mutex);
    return rc;
}

void cc_agent_patches_on_context_destroy(CUcontext ctx)
{
    pthread_mutex_lock(&cc_patch_mutex);
    for (size_t i = 0; i < cc_patched_count; i++) {
        if (cc_patched_contexts[i] == ctx) {
            cc_patched_contexts[i] = cc_patched_contexts[--cc_patched_count];
            break;
        }
    }
    pthread_mutex_unlock(&cc_patch_mutex);
}

void cc_agent_patches_after_fork(void)
{
    pthread_mutex_t fresh = PTHREAD_MUTEX_INITIALIZER;
    cc_patch_mutex = fresh;
    cc_patched_count = 0;
}
