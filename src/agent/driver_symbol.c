/* Driver entry points the agent calls itself (cuStreamIsCapturing, cuGraphKernelNodeGetParams),
 * looked up in the libcuda the program already loaded: the agent links no CUDA library. */
#include <dlfcn.h>
#include "agent.h"

void *cc_agent_driver_symbol(const char *name)
{
    void *h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (h == NULL) {
        h = dlopen("libcuda.so", RTLD_NOW | RTLD_NOLOAD);
    }
    /* h stays open: libcuda is never unloaded while the program runs. */
    return h != NULL ? dlsym(h, name) : NULL;
}
