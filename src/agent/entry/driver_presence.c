/* Whether this process could have used the CUDA driver (driver_presence.h). A libcuda the
 * process loaded ends the check at once. Otherwise the driver is looked for where the dynamic
 * loader would find it (LD_LIBRARY_PATH, the loader's cache, the usual library folders) without
 * loading it, so that a machine with a driver never pays for loading it into processes that do
 * not use CUDA; only when it is nowhere there is it opened, for the loader's own reason. */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "agent/entry/driver_presence.h"
#include "core/driver_note.h"

#define CC_LIBCUDA "libcuda.so.1"

static int cc_dir_has_libcuda(const char *dir, size_t len)
{
    char path[CC_AGENT_PATH_MAX];
    if (len == 0 || len + sizeof "/" CC_LIBCUDA > sizeof path) {
        return 0;
    }
    memcpy(path, dir, len);
    snprintf(path + len, sizeof path - len, "/" CC_LIBCUDA);
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The loader's cache names every library it knows as a plain string. */
static int cc_cache_has_libcuda(void)
{
    int fd = open("/etc/ld.so.cache", O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 0;
    }
    struct stat st;
    int found = 0;
    if (fstat(fd, &st) == 0 && st.st_size > 0 && st.st_size < (1 << 28)) {
        void *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (map != MAP_FAILED) {
            found = memmem(map, (size_t)st.st_size, CC_LIBCUDA, sizeof CC_LIBCUDA) != NULL;
            munmap(map, (size_t)st.st_size);
        }
    }
    close(fd);
    return found;
}

static int cc_libcuda_findable(void)
{
    const char *list = getenv("LD_LIBRARY_PATH");
    for (const char *p = list ? list : ""; *p != '\0';) {
        size_t n = strcspn(p, ":;");
        if (cc_dir_has_libcuda(p, n)) {
            return 1;
        }
        p += n;
        p += strspn(p, ":;");
    }
    static const char *const usual[] = {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu",
                                        "/lib/aarch64-linux-gnu", "/usr/lib/aarch64-linux-gnu",
                                        "/lib64", "/usr/lib64", "/lib", "/usr/lib"};
    for (size_t i = 0; i < sizeof usual / sizeof usual[0]; i++) {
        if (cc_dir_has_libcuda(usual[i], strlen(usual[i]))) {
            return 1;
        }
    }
    return cc_cache_has_libcuda();
}

void cc_agent_note_missing_driver(void)
{
    if (dlopen(CC_LIBCUDA, RTLD_LAZY | RTLD_NOLOAD) != NULL || cc_libcuda_findable()) {
        return; /* loaded (a reference that is never dropped: the process is ending) */
    }
    void *h = dlopen(CC_LIBCUDA, RTLD_LAZY | RTLD_LOCAL);
    if (h != NULL) {
        return; /* found through a path of its own (RPATH): kept until the process ends */
    }
    const char *why = dlerror();
    cc_agent_report_note(CC_NOTE_NO_DRIVER ": %s; every CUDA call of this process fails "
                         "before it reaches cucheck (try 'cucheck doctor')",
                         why != NULL ? why : "not found");
}
