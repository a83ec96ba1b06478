/* Where doctor looks for CUDA libraries: LD_LIBRARY_PATH, the loader cache (ldconfig -p), the
 * toolkits under /usr/local/cuda*, and Python site-packages (nvidia/<pkg>/lib wheels and
 * torch/lib). Files are recognised by name (libcudart.so.12 ...) and kept once per real path. */
#include "doctor/probe.h"
#include "doctor/probe_util.h"

#include <dirent.h>
#include <glob.h>
#include <stdlib.h>
#include <string.h>

static const struct { const char *stem; int kind; } lib_stems[] = {
    {"libcudart", CC_LIB_CUDART},   {"libcublasLt", CC_LIB_CUBLASLT},
    {"libcublas", CC_LIB_CUBLAS},   {"libcudnn", CC_LIB_CUDNN},
    {"libnccl", CC_LIB_NCCL},       {"libcupti", CC_LIB_CUPTI},
    {"libnvrtc", CC_LIB_NVRTC},     {"libnvJitLink", CC_LIB_NVJITLINK},
    {"libsanitizer-public", CC_LIB_SANITIZER},
};

int cc_doc_lib_kind_of(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (unsigned i = 0; i < sizeof lib_stems / sizeof lib_stems[0]; i++) {
        size_t n = strlen(lib_stems[i].stem);
        if (strncmp(base, lib_stems[i].stem, n) != 0 || strncmp(base + n, ".so", 3) != 0)
            continue;
        const char *rest = base + n + 3; /* "" or ".12" or ".12.4.127" */
        if (*rest == 0)
            return lib_stems[i].kind;
        if (*rest != '.')
            continue;
        for (rest++; *rest; rest++)
            if (!((*rest >= '0' && *rest <= '9') || *rest == '.'))
                break;
        if (*rest == 0)
            return lib_stems[i].kind;
    }
    return -1;
}

int cc_doc_add_lib(cc_doc_report *r, int kind, int origin, const char *path)
{
    char real[PATH_MAX];
    if (!realpath(path, real))
        return -1;
    for (int i = 0; i < r->nlibs; i++)
        if (strcmp(r->libs[i].path, real) == 0)
            return i;
    if (r->nlibs >= CC_DOC_MAX_LIBS)
        return -1;
    cc_doc_lib *l = &r->libs[r->nlibs];
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->origin = origin;
    snprintf(l->path, sizeof l->path, "%s", real);
    return r->nlibs++;
}

int cc_doc_search_dir(cc_doc_report *r, const char *dir, int origin)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int added = 0, before = r->nlibs;
    struct dirent *de;
    /* Sort-free but deterministic enough: directory order; dedup keeps the first path. */
    while ((de = readdir(d)) != NULL) {
        int kind = cc_doc_lib_kind_of(de->d_name);
        if (kind < 0)
            continue;
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", dir, de->d_name) >= (int)sizeof path)
            continue;
        cc_doc_add_lib(r, kind, origin, path);
    }
    closedir(d);
    added = r->nlibs - before;
    return added;
}

static void search_glob(cc_doc_report *r, const char *pattern, int origin)
{
    glob_t g;
    if (glob(pattern, GLOB_NOSORT, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc; i++)
        cc_doc_search_dir(r, g.gl_pathv[i], origin);
    globfree(&g);
}

/* "\tlibcudart.so.12 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcudart.so.12" */
static void search_ldconfig(cc_doc_report *r)
{
    static const char *const cmds[] = {"/sbin/ldconfig", "/usr/sbin/ldconfig", "ldconfig"};
    size_t cap = 1 << 20;
    char *out = malloc(cap);
    if (!out)
        return;
    for (unsigned c = 0; c < sizeof cmds / sizeof cmds[0]; c++) {
        char *argv[] = {(char *)cmds[c], (char *)"-p", NULL};
        int st = 0;
        char err[160];
        if (cc_doc_run_capture(argv, NULL, 0, 10000, out, cap, &st, err, sizeof err) != 0 ||
            st != 0)
            continue;
        for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
            char *arrow = strstr(line, " => ");
            char *flags = strchr(line, '(');
            if (!arrow || !flags || flags > arrow)
                continue;
            if (sizeof(void *) == 8 && !strstr(flags, "64"))
                continue; /* a 32-bit copy */
            const char *path = arrow + 4;
            int kind = cc_doc_lib_kind_of(path);
            if (kind >= 0)
                cc_doc_add_lib(r, kind, CC_ORIGIN_LDCONFIG, path);
        }
        break;
    }
    free(out);
}

void cc_doc_search_libs(cc_doc_report *r)
{
    const char *ldp = getenv("LD_LIBRARY_PATH");
    if (ldp && *ldp) {
        char *copy = strdup(ldp);
        for (char *save = NULL, *dir = copy ? strtok_r(copy, ":", &save) : NULL; dir;
             dir = strtok_r(NULL, ":", &save))
            cc_doc_search_dir(r, dir, CC_ORIGIN_LD_LIBRARY_PATH);
        free(copy);
    }
    search_ldconfig(r);
    static const char *const toolkit_dirs[] = {
        "/usr/local/cuda*/lib64", "/usr/local/cuda*/targets/*/lib",
        "/usr/local/cuda*/extras/CUPTI/lib64", "/usr/local/cuda*/compute-sanitizer",
    };
    for (unsigned i = 0; i < sizeof toolkit_dirs / sizeof toolkit_dirs[0]; i++)
        search_glob(r, toolkit_dirs[i], CC_ORIGIN_TOOLKIT);
    for (int s = 0; s < r->python.nsites; s++) {
        char pat[PATH_MAX + 32];
        snprintf(pat, sizeof pat, "%s/nvidia/*/lib", r->python.sites[s]);
        search_glob(r, pat, CC_ORIGIN_PYTHON);
        snprintf(pat, sizeof pat, "%s/torch/lib", r->python.sites[s]);
        cc_doc_search_dir(r, pat, CC_ORIGIN_PYTHON);
    }
}
