/* The run id, report directory, per-process report pattern and collection of this run's report
 * sections (reports.h). */
#include "cli/reports.h"

#include <errno.h>
#include <fnmatch.h>
#include <ftw.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/owned_file.h"
#include "cli/diag.h"

int cc_cli_absolute(const char *rel, char *out, size_t outlen)
{
    if (rel[0] == '/') {
        if (strlen(rel) + 1 > outlen) {
            return -1;
        }
        strcpy(out, rel);
        return 0;
    }
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd)) {
        return -1;
    }
    int n = snprintf(out, outlen, "%s/%s", strcmp(cwd, "/") == 0 ? "" : cwd, rel);
    return n < 0 || (size_t)n >= outlen ? -1 : 0;
}

int cc_cli_pattern_glob(const char *pat, char *out, size_t outlen)
{
    size_t o = 0;
#define PUT(c)                  \
    do {                        \
        if (o + 1 >= outlen) {  \
            return -1;          \
        }                       \
        out[o++] = (char)(c);   \
    } while (0)
    for (const char *p = pat; *p; p++) {
        if (p[0] == '%' && (p[1] == 'p' || p[1] == 'r')) {
            PUT('*');
            p++;
        } else if (p[0] == '%' && p[1] == '%') {
            PUT('%');
            p++;
        } else if (p[0] == '%' && p[1] == 'q' && p[2] == '{') {
            const char *close = strchr(p + 3, '}');
            if (!close) {
                return -1;
            }
            PUT('*');
            p = close;
        } else {
            if (strchr("*?[]\\", *p)) {
                PUT('\\');
            }
            PUT(*p);
        }
    }
#undef PUT
    out[o] = '\0';
    return 0;
}

static int mkdir_p(const char *path)
{
    char buf[PATH_MAX];
    if (strlen(path) + 1 > sizeof buf) {
        errno = ENAMETOOLONG;
        return -1;
    }
    strcpy(buf, path);
    for (char *s = buf + 1; *s; s++) {
        if (*s == '/') {
            *s = '\0';
            if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
                return -1;
            }
            *s = '/';
        }
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
        return -1;
    }
    struct stat st;
    if (stat(buf, &st) != 0) {
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* 16 hex digits from the kernel's random source (the clock and pid if it has none): a name
 * nobody can guess before the run starts. */
static void new_run_id(char *out, size_t outlen)
{
    unsigned char b[8];
    if (getrandom(b, sizeof b, GRND_NONBLOCK) != (ssize_t)sizeof b) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        unsigned long long v = ((unsigned long long)ts.tv_sec << 32) ^ (unsigned long long)ts.tv_nsec ^
                               ((unsigned long long)getpid() << 20);
        for (size_t i = 0; i < sizeof b; i++) {
            b[i] = (unsigned char)(v >> (8 * i));
        }
    }
    size_t k = 0;
    for (size_t i = 0; i < sizeof b && k + 2 < outlen; i++) {
        k += (size_t)snprintf(out + k, outlen - k, "%02x", b[i]);
    }
}

int cc_reports_prepare(cc_report_place *p, const cc_cli_opts *g, char *err, size_t errlen)
{
    memset(p, 0, sizeof *p);
    new_run_id(p->run_id, sizeof p->run_id);
    const char *file = g->report_file;
    int needs_dir = !file || !strchr(file, '/');
    if (needs_dir && g->report_dir) {
        if (cc_cli_absolute(g->report_dir, p->dir, sizeof p->dir) != 0) {
            snprintf(err, errlen, "report directory '%s': path too long", g->report_dir);
            return -1;
        }
        if (mkdir_p(p->dir) != 0) {
            snprintf(err, errlen, "report directory '%s': %s", g->report_dir, strerror(errno));
            return -1;
        }
    } else if (needs_dir) {
        const char *tmp = getenv("TMPDIR");
        if (!tmp || !*tmp) {
            tmp = "/tmp";
        }
        char templ[PATH_MAX];
        int n = snprintf(templ, sizeof templ, "%s/cucheck.XXXXXX", tmp);
        if (n < 0 || (size_t)n >= sizeof templ || !mkdtemp(templ)) {
            snprintf(err, errlen, "cannot create a report directory in '%s': %s", tmp,
                     strerror(errno));
            return -1;
        }
        if (cc_cli_absolute(templ, p->dir, sizeof p->dir) != 0) {
            rmdir(templ);
            snprintf(err, errlen, "report directory '%s': path too long", templ);
            return -1;
        }
        p->dir_is_temp = 1;
    }
    int n;
    if (!file) {
        /* "rank<R>." before the pid when the process has a rank: files named by rank */
        n = snprintf(p->pattern, sizeof p->pattern, "%s/cucheck.%s.%%r%%p.jsonl", p->dir,
                     p->run_id);
    } else if (needs_dir) {
        n = snprintf(p->pattern, sizeof p->pattern, "%s/%s", p->dir, file);
    } else {
        n = cc_cli_absolute(file, p->pattern, sizeof p->pattern) == 0 ? 1 : -1;
    }
    char probe[4096];
    if (n < 0 || (size_t)n >= sizeof p->pattern ||
        cc_expand_report_name(p->pattern, 1, probe, sizeof probe) != 0 ||
        cc_cli_pattern_glob(p->pattern, p->glob, sizeof p->glob) != 0) {
        snprintf(err, errlen, "bad report file pattern '%s' (too long, or an unterminated %%q{)",
                 file ? file : p->pattern);
        cc_reports_finish(p, 0, 1);
        return -1;
    }
    if (!needs_dir) {
        /* Create the directory part of a pattern that has no expansion in it. */
        char d[4096];
        strcpy(d, p->pattern);
        char *slash = strrchr(d, '/');
        if (slash && slash != d) {
            *slash = '\0';
            if (!strchr(d, '%') && mkdir_p(d) != 0) {
                snprintf(err, errlen, "report directory '%s': %s", d, strerror(errno));
                return -1;
            }
        }
    }
    if (!strchr(p->pattern, '%')) {
        /* one fixed name: a name that is taken is said now, before the program runs unchecked */
        char why[256];
        if (cc_owned_file_check(p->pattern, CC_OWNED_APPEND, why, sizeof why) != 0) {
            snprintf(err, errlen, "report file '%s': %s", p->pattern, why);
            cc_reports_finish(p, 0, 1);
            return -1;
        }
    }
    return 0;
}

/* Reads the sections of this run in one file; 1 if it held any. */
static int collect_file(const cc_report_place *p, const char *path, cc_finding_set *s,
                        int verbose)
{
    struct stat st;
    if (lstat(path, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))) {
        return 0;
    }
    char err[512] = "";
    size_t sections = 0;
    int rc = cc_finding_set_load_report(s, path, p->run_id, &sections, err, sizeof err);
    if (rc < 0) {
        cc_cli_error("report %s", err);
    } else if (rc > 0) {
        cc_cli_error("report %s; damaged lines are skipped, the records around them are read", err);
    } else if (err[0]) {
        cc_cli_error("report '%s': %s", path, err);
    } else if (verbose && sections) {
        cc_cli_error("collected report '%s'", path);
    }
    return sections > 0;
}

size_t cc_reports_collect(cc_report_place *p, cc_finding_set *s, int verbose)
{
    /* the pattern's files, and those of fork children of a pattern without %p ("NAME.<pid>") */
    char child_glob[sizeof p->glob + 8];
    snprintf(child_glob, sizeof child_glob, "%s.[0-9]*", p->glob);
    const char *globs[2] = {p->glob, strstr(p->pattern, "%p") ? NULL : child_glob};
    size_t nread = 0;
    for (size_t k = 0; k < 2 && globs[k]; k++) {
        glob_t gl;
        memset(&gl, 0, sizeof gl);
        if (glob(globs[k], 0, NULL, &gl) == 0) {
            for (size_t i = 0; i < gl.gl_pathc; i++) {
                const char *path = gl.gl_pathv[i];
                if (k > 0 && fnmatch(p->glob, path, FNM_PATHNAME | FNM_PERIOD) == 0) {
                    continue; /* read with the pattern's own files already */
                }
                nread += (size_t)collect_file(p, path, s, verbose);
            }
        }
        globfree(&gl);
    }
    return nread;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    if (remove(path) != 0) {
        cc_cli_error("cannot remove '%s': %s", path, strerror(errno));
    }
    return 0;
}

void cc_reports_finish(cc_report_place *p, int keep, int quiet)
{
    if (p->dir_is_temp && p->dir[0]) {
        if (keep) {
            if (!quiet) {
                cc_cli_error("reports kept in %s", p->dir);
            }
        } else {
            nftw(p->dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        }
        p->dir_is_temp = 0;
    }
}
