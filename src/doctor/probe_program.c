/* `cucheck doctor -- program args...`: runs the program (its output goes to doctor's stderr)
 * with LD_DEBUG=libs and LD_DEBUG_OUTPUT pointing into a private temporary folder, so the
 * dynamic loader writes, for this process and every child, the path of each object it
 * initialises ("calling init: PATH"). Those exact files are then probed: the CUDA libraries
 * for their versions, every object for the kernel images it carries, libcuda for which driver
 * library was used. */
#include "doctor/probe.h"
#include "doctor/probe_util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

void cc_doc_parse_ld_debug(const char *text, void (*cb)(const char *path, void *user),
                           void *user)
{
    static const char marker[] = "calling init: ";
    const char *p = text;
    while ((p = strstr(p, marker)) != NULL) {
        p += sizeof marker - 1;
        size_t n = strcspn(p, "\n");
        while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\r'))
            n--;
        if (n > 0 && n < PATH_MAX && p[0] == '/') {
            char path[PATH_MAX];
            memcpy(path, p, n);
            path[n] = 0;
            cb(path, user);
        }
        p += n;
    }
}

static void on_loaded(const char *path, void *user)
{
    cc_doc_report *r = user;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    r->program.nloaded++;
    if (strncmp(base, "libcuda.so", 10) == 0) {
        char real[PATH_MAX];
        snprintf(r->program.libcuda, sizeof r->program.libcuda, "%s",
                 realpath(path, real) ? real : path);
        return;
    }
    int kind = cc_doc_lib_kind_of(path);
    if (kind >= 0)
        cc_doc_add_lib(r, kind, CC_ORIGIN_PROGRAM, path);
    cc_doc_add_binary(r, path, "loaded by the program", CC_ORIGIN_PROGRAM, 0);
}

/* argv[0] resolved through PATH like execvp does; "" if not found. */
static void resolve_program(const char *name, char *out, size_t len)
{
    out[0] = 0;
    if (strchr(name, '/')) {
        snprintf(out, len, "%s", name);
        return;
    }
    const char *path = getenv("PATH");
    char *copy = path ? strdup(path) : NULL;
    for (char *save = NULL, *d = copy ? strtok_r(copy, ":", &save) : NULL; d;
         d = strtok_r(NULL, ":", &save)) {
        char cand[PATH_MAX];
        if (snprintf(cand, sizeof cand, "%s/%s", d, name) < (int)sizeof cand &&
            access(cand, X_OK) == 0) {
            snprintf(out, len, "%s", cand);
            break;
        }
    }
    free(copy);
}

static void read_logs(cc_doc_report *r, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    size_t cap = 64u << 20;
    char *buf = malloc(cap);
    while (buf && (de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.')
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        if (cc_doc_read_small_file(path, buf, cap) >= 0)
            cc_doc_parse_ld_debug(buf, on_loaded, r);
        unlink(path);
    }
    free(buf);
    closedir(d);
}

void cc_doc_run_program(cc_doc_report *r)
{
    cc_doc_program *pr = &r->program;
    char **argv = r->opt.program;
    char tmpl[] = "/tmp/cucheck-doctor-XXXXXX";
    if (!mkdtemp(tmpl)) {
        snprintf(pr->error, sizeof pr->error, "cannot create a temporary folder: %s",
                 strerror(errno));
        return;
    }
    char exe[PATH_MAX];
    resolve_program(argv[0], exe, sizeof exe);
    if (!exe[0] || access(exe, X_OK) != 0) {
        snprintf(pr->error, sizeof pr->error, "cannot run %s: not found or not executable",
                 argv[0]);
        rmdir(tmpl);
        return;
    }
    char out_env[PATH_MAX + 32];
    snprintf(out_env, sizeof out_env, "LD_DEBUG_OUTPUT=%s/ld", tmpl);
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(pr->error, sizeof pr->error, "fork: %s", strerror(errno));
        rmdir(tmpl);
        return;
    }
    if (pid == 0) {
        dup2(2, 1); /* keep doctor's stdout (and --json) clean */
        putenv((char *)"LD_DEBUG=libs");
        putenv(out_env);
        execv(exe, argv);
        fprintf(stderr, "cucheck doctor: cannot run %s: %s\n", exe, strerror(errno));
        _exit(127);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    pr->ran = 1;
    pr->status = WIFSIGNALED(st) ? 128 + WTERMSIG(st) : WIFEXITED(st) ? WEXITSTATUS(st) : 255;
    cc_doc_add_binary(r, exe, "the program", CC_ORIGIN_PROGRAM, 0);
    read_logs(r, tmpl);
    rmdir(tmpl);
    if (pr->nloaded == 0)
        snprintf(pr->error, sizeof pr->error,
                 "the loader reported no libraries (a static or setuid program ignores "
                 "LD_DEBUG)");
}
