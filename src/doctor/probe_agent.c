/* doctor's agent checks: the agent cucheck would inject, a test process per backend with the
 * agent injected exactly as `cucheck TOOL` injects it (this cucheck runs `cucheck --report-dir
 * TMP --keep-reports TOOL -- cucheck doctor --cuda-probe` under LD_DEBUG=libs, so the loader
 * names the Compute Sanitizer library and CUPTI the agent really loaded), what the test printed
 * and wrote (a process report means the agent initialised and subscribed; the run tool's note
 * counts the contexts it saw), and other CUDA tools clients named by the environment. */
#include "doctor/probe.h"
#include "doctor/probe_util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/driver_note.h"

/* ---- other tools clients ---- */

static const struct {
    const char *needle;
    const char *tool;
} known_tools[] = {
    {"libToolsInjection", "Nsight Systems"},
    {"nsight-systems", "Nsight Systems"},
    {"nsys", "Nsight Systems"},
    {"nsight-compute", "Nsight Compute"},
    {"libTreeLauncher", "compute-sanitizer or Nsight Compute"},
    {"compute-sanitizer", "compute-sanitizer"},
    {"sanitizer", "a Compute Sanitizer tool"},
    {"libcupti", "a CUPTI-based profiler"},
    {"cupti", "a CUPTI-based profiler"},
    {"nvtx", "an NVTX tool"},
    {"libkineto", "the PyTorch profiler (Kineto)"},
    {"hpctoolkit", "HPCToolkit"},
    {"tau", "TAU"},
};

static void base_name(const char *path, char *out, size_t len)
{
    const char *b = strrchr(path, '/');
    snprintf(out, len, "%s", b ? b + 1 : path);
}

static int same_file_name(const char *a, const char *b)
{
    if (!a || !b || !a[0] || !b[0])
        return 0;
    if (strcmp(a, b) == 0)
        return 1;
    char ra[PATH_MAX], rb[PATH_MAX];
    return realpath(a, ra) && realpath(b, rb) && strcmp(ra, rb) == 0;
}

static void add_client(cc_doc_agent *a, const char *variable, const char *value, size_t n,
                       int any_library)
{
    char entry[PATH_MAX], base[PATH_MAX];
    if (n == 0 || n >= sizeof entry || a->nclients >= CC_DOC_MAX_CLIENTS)
        return;
    memcpy(entry, value, n);
    entry[n] = 0;
    base_name(entry, base, sizeof base);
    const char *tool = NULL;
    for (size_t i = 0; !tool && i < sizeof known_tools / sizeof known_tools[0]; i++)
        if (strstr(entry, known_tools[i].needle))
            tool = known_tools[i].tool;
    if (!tool && !any_library)
        return;
    cc_doc_client *c = &a->clients[a->nclients++];
    snprintf(c->variable, sizeof c->variable, "%s", variable);
    snprintf(c->value, sizeof c->value, "%s", entry);
    snprintf(c->tool, sizeof c->tool, "%s", tool ? tool : "another tool");
}

int cc_doc_find_clients(const char *cuda_injection, const char *nvtx_injection,
                        const char *ld_preload, const char *agent, cc_doc_agent *a)
{
    int before = a->nclients;
    /* an injection variable names exactly one library: any other than the agent is a tool */
    if (cuda_injection && cuda_injection[0] && !same_file_name(cuda_injection, agent))
        add_client(a, "CUDA_INJECTION64_PATH", cuda_injection, strlen(cuda_injection), 1);
    if (nvtx_injection && nvtx_injection[0] && !same_file_name(nvtx_injection, agent))
        add_client(a, "NVTX_INJECTION64_PATH", nvtx_injection, strlen(nvtx_injection), 1);
    /* LD_PRELOAD holds many things (allocators, shims): only known tools count */
    for (const char *p = ld_preload ? ld_preload : ""; *p;) {
        size_t n = strcspn(p, ": ");
        char entry[PATH_MAX];
        if (n > 0 && n < sizeof entry) {
            memcpy(entry, p, n);
            entry[n] = 0;
            if (!same_file_name(entry, agent) && !strstr(entry, "libcucheck_agent"))
                add_client(a, "LD_PRELOAD", p, n, 0);
        }
        p += n;
        p += strspn(p, ": ");
    }
    return a->nclients - before;
}

/* ---- the test process's output ---- */

typedef struct loaded_scan {
    cc_doc_injection *inj;
} loaded_scan;

static void on_loaded(const char *path, void *user)
{
    cc_doc_injection *inj = ((loaded_scan *)user)->inj;
    char base[PATH_MAX];
    base_name(path, base, sizeof base);
    if (strncmp(base, "libcucheck_agent", 16) == 0)
        inj->agent_loaded = 1;
    int want = strcmp(inj->tool, "profile") == 0 ? CC_LIB_CUPTI : CC_LIB_SANITIZER;
    if (!inj->backend_lib[0] && cc_doc_lib_kind_of(path) == want) {
        char real[PATH_MAX];
        snprintf(inj->backend_lib, sizeof inj->backend_lib, "%s",
                 realpath(path, real) ? real : path);
    }
}

static void set_message(cc_doc_injection *inj, const char *line, size_t n, int replace)
{
    if (inj->message[0] && !replace)
        return;
    if (n >= 9 && strncmp(line, "cucheck: ", 9) == 0) { /* the agent's own prefix */
        line += 9;
        n -= 9;
    }
    if (n >= sizeof inj->message)
        n = sizeof inj->message - 1;
    memcpy(inj->message, line, n);
    inj->message[n] = 0;
}

void cc_doc_parse_injection(const char *output, const char *ld_log, int reports,
                            cc_doc_injection *inj)
{
    static const char bar[] = "========= ";
    inj->reports = reports;
    inj->contexts = -1;
    loaded_scan scan = {inj};
    if (ld_log)
        cc_doc_parse_ld_debug(ld_log, on_loaded, &scan);
    for (const char *line = output ? output : ""; *line;) {
        size_t n = strcspn(line, "\n");
        char buf[1024];
        size_t m = n < sizeof buf ? n : sizeof buf - 1;
        memcpy(buf, line, m);
        buf[m] = 0;
        const char *note = strncmp(buf, bar, sizeof bar - 1) == 0 ? buf + sizeof bar - 1 : NULL;
        int contexts = 0;
        if (strstr(buf, "cannot be preloaded")) {
            inj->preload_failed = 1;
            set_message(inj, buf, m, 1);
        } else if (strstr(buf, "another CUDA tools-API client") ||
                   strstr(buf, "is already in use by")) {
            inj->conflict = 1;
            set_message(inj, buf, m, 1);
        } else if (note && strncmp(note, CC_NOTE_NO_DRIVER, sizeof CC_NOTE_NO_DRIVER - 1) == 0) {
            inj->no_driver = 1;
            set_message(inj, note, strlen(note), 0);
        } else if (note && sscanf(note, "run: tracked %d context(s)", &contexts) == 1) {
            inj->contexts = contexts;
        } else if (strncmp(buf, "cuda-probe: ", 12) == 0) {
            if (strncmp(buf + 12, CC_NOTE_NO_DRIVER, sizeof CC_NOTE_NO_DRIVER - 1) == 0) {
                inj->no_driver = 1;
                set_message(inj, buf + 12, m - 12, 0);
            } else if (strstr(buf, "allocation on GPU 0: ok")) {
                inj->driver_used = 1;
            } else {
                set_message(inj, buf + 12, m - 12, 0);
            }
        } else if (strstr(buf, "cannot attach:") || strstr(buf, "cannot profile:")) {
            set_message(inj, buf, m, !inj->no_driver);
        }
        line += n;
        line += *line == '\n';
    }
}

/* ---- running the test ---- */

/* Remove dir's files (one level) and dir; returns how many names ended in suffix (when given)
 * after appending the contents of those starting with prefix to log (when given). */
static int drain_dir(const char *dir, const char *suffix, const char *prefix, char *log,
                     size_t cap)
{
    DIR *d = opendir(dir);
    int count = 0;
    size_t used = log ? strlen(log) : 0;
    struct dirent *de;
    while (d && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        size_t len = strlen(de->d_name);
        size_t slen = suffix ? strlen(suffix) : 0;
        if (suffix && len >= slen && strcmp(de->d_name + len - slen, suffix) == 0)
            count++;
        if (log && prefix && strncmp(de->d_name, prefix, strlen(prefix)) == 0 && used + 1 < cap) {
            long got = cc_doc_read_small_file(path, log + used, cap - used);
            if (got > 0)
                used += (size_t)got;
        }
        unlink(path);
    }
    if (d)
        closedir(d);
    rmdir(dir);
    return count;
}

static void run_injection(const cc_doc_report *r, cc_doc_injection *inj)
{
    char tmpl[] = "/tmp/cucheck-doctor-agent-XXXXXX";
    if (!mkdtemp(tmpl)) {
        snprintf(inj->error, sizeof inj->error, "cannot create a temporary folder: %s",
                 strerror(errno));
        return;
    }
    char reports[PATH_MAX], ld_env[PATH_MAX + 32];
    snprintf(reports, sizeof reports, "%s/reports", tmpl);
    snprintf(ld_env, sizeof ld_env, "LD_DEBUG_OUTPUT=%s/ld", tmpl);
    char *argv[] = {(char *)r->opt.cucheck_exe, (char *)"--report-dir", reports,
                    (char *)"--keep-reports", (char *)inj->tool, (char *)"--",
                    (char *)r->opt.cucheck_exe, (char *)"doctor", (char *)"--cuda-probe", NULL};
    char *env[] = {(char *)"LD_DEBUG=libs", ld_env, NULL};
    size_t cap = 1u << 16, logcap = 8u << 20;
    char *out = malloc(cap), *log = calloc(1, logcap);
    char err[200] = "";
    if (!out || !log) {
        snprintf(inj->error, sizeof inj->error, "out of memory");
    } else if (cc_doc_run_capture(argv, env, 1, 120000, out, cap, &inj->status, err,
                                  sizeof err) != 0) {
        snprintf(inj->error, sizeof inj->error, "%s", err);
    } else {
        inj->ran = 1;
    }
    int nreports = drain_dir(reports, ".jsonl", NULL, NULL, 0);
    drain_dir(tmpl, NULL, "ld", log, logcap);
    if (inj->ran)
        cc_doc_parse_injection(out, log, nreports, inj);
    free(out);
    free(log);
}

static void probe_backend_lib(cc_doc_lib *lib, int kind, const char *path)
{
    lib->kind = kind;
    if (!path[0])
        return;
    snprintf(lib->path, sizeof lib->path, "%s", path);
    cc_doc_probe_lib(lib);
}

void cc_doc_probe_agent(cc_doc_report *r)
{
    cc_doc_agent *a = &r->agent;
    if (r->opt.no_agent)
        return;
    a->checked = 1;
    cc_doc_find_clients(getenv("CUDA_INJECTION64_PATH"), getenv("NVTX_INJECTION64_PATH"),
                        getenv("LD_PRELOAD"), r->opt.agent, a);
    a->inject[0].tool = "run";
    a->inject[1].tool = "profile";
    a->sanitizer.kind = CC_LIB_SANITIZER;
    a->cupti.kind = CC_LIB_CUPTI;
    if (!r->opt.agent) {
        snprintf(a->locate_error, sizeof a->locate_error, "%s",
                 r->opt.agent_error ? r->opt.agent_error : "not found");
        return;
    }
    snprintf(a->path, sizeof a->path, "%s", r->opt.agent);
    if (!r->opt.cucheck_exe) {
        for (int i = 0; i < 2; i++)
            snprintf(a->inject[i].error, sizeof a->inject[i].error,
                     "the cucheck executable is unknown");
        return;
    }
    for (int i = 0; i < 2; i++)
        run_injection(r, &a->inject[i]);
    probe_backend_lib(&a->sanitizer, CC_LIB_SANITIZER, a->inject[0].backend_lib);
    probe_backend_lib(&a->cupti, CC_LIB_CUPTI, a->inject[1].backend_lib);
}
