/* NVTX's injection entry points (nvtx_inject.h): InitializeInjectionNvtx2 accepts the core API
 * and implements none of it (its calls stay no-ops, nvtxDomainCreateA returns NULL as without a
 * tool); InitializeInjectionNvtxExtension fills the memory extension's slots (nvtx_mem.c) when
 * its module and compatibility ids are the ones these headers describe, and accepts every other
 * extension unfilled. Both return 1: a 0 makes NVTX turn every call of the program into a no-op
 * for good. cc_nvtx_attach names this file in NVTX_INJECTION64_PATH. */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#define NVTX_NO_IMPL
#include <nvtx3/nvToolsExtMem.h>
#include "agent/core/agent.h"
#include "agent/nvtx/nvtx_inject.h"
#include "agent/nvtx/nvtx_mem.h"

#define CC_NVTX_ENV "NVTX_INJECTION64_PATH"
#define CC_NVTX_MEM_SEGMENT 1 /* the memory extension's one segment (nvtxExtImplMem_v1.h) */

__attribute__((visibility("default"))) int
InitializeInjectionNvtx2(NvtxGetExportTableFunc_t get_export_table)
{
    (void)get_export_table;
    return 1;
}

__attribute__((visibility("default"))) int
InitializeInjectionNvtxExtension(nvtxExtModuleInfo_t *info)
{
    if (info == NULL || info->structSize < offsetof(nvtxExtModuleInfo_t, segments) +
                                               sizeof info->segments ||
        info->moduleId != NVTX_EXT_MODULEID_MEM ||
        (info->compatId >> 8) != (NVTX_EXT_COMPATID_MEM >> 8) || info->segments == NULL) {
        return 1;
    }
    for (size_t i = 0; i < info->segmentsCount; i++) {
        nvtxExtModuleSegment_t *s = &info->segments[i];
        if (s->segmentId == CC_NVTX_MEM_SEGMENT) {
            cc_nvtx_mem_fill(s->functionSlots, s->slotCount);
        }
    }
    return 1;
}

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

void cc_nvtx_attach(const char *tool)
{
    Dl_info self;
    if (dladdr((void *)&cc_nvtx_attach, &self) == 0 || self.dli_fname == NULL ||
        self.dli_fname[0] == '\0') {
        return;
    }
    const char *set = getenv(CC_NVTX_ENV);
    if (set == NULL || set[0] == '\0') {
        setenv(CC_NVTX_ENV, self.dli_fname, 1);
        return;
    }
    if (same_file(set, self.dli_fname)) {
        return; /* inherited from the parent process */
    }
    cc_agent_report_note("%s: %s names another NVTX tool (%s): NVTX memory annotations "
                         "(sub-allocator heaps and regions) were not read", tool, CC_NVTX_ENV, set);
}
