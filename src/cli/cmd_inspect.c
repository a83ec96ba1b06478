/* `cucheck inspect FILE|DIR...`: lists the device code inside binaries (fatbin entries with their
 * kind, architecture, PTX ISA, compression and sizes; kernels per cubin with their resources,
 * mangled and demangled names; line-info presence) as text or as one JSON object. Directories
 * are walked recursively and only files that carry CUDA code are listed. Paths and names are
 * printed escaped (core/text_escape.h). Exit status: 0, 1 if any file could not be read, 2 for
 * usage errors. */
#include "cli/commands.h"
#include "cli/diag.h"
#include "core/text_escape.h"
#include "symbols/binary.h"
#include "symbols/cubin.h"
#include "symbols/demangle.h"
#include "symbols/fatbin.h"
#include "symbols/ptx.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define MAX_DEPTH 64

typedef struct inspect_ctx {
    int json;
    FILE *out;
    /* per file */
    const char *path;
    int listed;        /* header / JSON object opened for this file */
    unsigned index;    /* entries listed so far */
    /* totals */
    unsigned files, with_code, without_code, failed, unreadable_entries;
    int first_file;    /* JSON: no file object written yet */
    cc_demangle_cache *names; /* kernel names, demangled once each (a library repeats them per
                               * architecture) */
} inspect_ctx;

static const char *usage_text =
    "usage: cucheck inspect [--json] FILE|DIR...\n"
    "\n"
    "List the CUDA device code inside executables, shared libraries, objects (.o), static\n"
    "archives (.a), cubins, fatbins and PTX files. Directories are searched recursively; only\n"
    "files that carry device code are listed, the others are counted.\n"
    "\n"
    "For every fatbin entry: kind (sass/ptx), architecture (sm_90a, compute_120f, ...), PTX ISA\n"
    "version, compression (none/lz4/zstd) and sizes, line information. For every kernel of a\n"
    "SASS entry: mangled and demangled name, registers, static shared memory, local memory\n"
    "(stack frame), launch bounds, register cap, barriers, parameter bytes, cluster shape.\n"
    "\n"
    "options:\n"
    "  --json    print one JSON object instead of text\n"
    "  --help    show this help\n"
    "\n"
    "exit status: 0 ok, 1 some file could not be read, 2 usage error\n";

/* ---- JSON helpers ---- */
static void json_str(FILE *o, const char *s, size_t n)
{
    fputc('"', o);
    for (size_t i = 0; i < n && s[i]; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\')
            fprintf(o, "\\%c", c);
        else if (c == '\n')
            fputs("\\n", o);
        else if (c == '\t')
            fputs("\\t", o);
        else if (c < 0x20 || c >= 0x7f)
            fprintf(o, "\\u%04x", c);
        else
            fputc(c, o);
    }
    fputc('"', o);
}
static void json_cstr(FILE *o, const char *s)
{
    if (s)
        json_str(o, s, strlen(s));
    else
        fputs("null", o);
}
static void json_dims(FILE *o, const uint32_t d[3])
{
    if (d[0] || d[1] || d[2])
        fprintf(o, "[%u,%u,%u]", d[0], d[1], d[2]);
    else
        fputs("null", o);
}

/* ---- per file framing ---- */
static void open_file(inspect_ctx *c, const cc_scan_stats *st)
{
    if (c->listed)
        return;
    c->listed = 1;
    if (c->json) {
        fputs(c->first_file ? "\n    {\"path\": " : ",\n    {\"path\": ", c->out);
        c->first_file = 0;
        json_cstr(c->out, c->path);
        fprintf(c->out, ", \"kind\": \"%s\", \"entries\": [", cc_file_kind_name(st->kind));
    } else {
        cc_text_fputs(c->path, c->out);
        fprintf(c->out, " (%s)\n", cc_file_kind_name(st->kind));
    }
}

static void close_file(inspect_ctx *c, const char *error)
{
    if (!c->listed)
        return;
    if (c->json) {
        fputs(c->index ? "\n      ]" : "]", c->out);
        if (error) {
            fputs(", \"error\": ", c->out);
            json_cstr(c->out, error);
        }
        fputs("}", c->out);
    }
}

/* ---- kernels ---- */
typedef struct kernel_ctx {
    inspect_ctx *c;
    unsigned n;
} kernel_ctx;

static int print_sass_kernel(const cc_kernel_info *k, void *user)
{
    kernel_ctx *kc = user;
    FILE *o = kc->c->out;
    const char *dem = cc_demangle_cached(kc->c->names, k->name);
    if (kc->c->json) {
        fputs(kc->n ? ",\n          {\"name\": " : "\n          {\"name\": ", o);
        json_cstr(o, k->name);
        fputs(", \"demangled\": ", o);
        json_cstr(o, dem);
        if (k->has_regs)
            fprintf(o, ", \"registers\": %u", k->regs);
        else
            fputs(", \"registers\": null", o);
        fprintf(o, ", \"static_shared_bytes\": %u, \"local_bytes\": %u, \"min_stack_bytes\": %u",
                k->static_smem, k->local_bytes, k->min_stack_bytes);
        fputs(", \"max_threads\": ", o);
        json_dims(o, k->max_threads);
        fputs(", \"req_threads\": ", o);
        json_dims(o, k->req_threads);
        fprintf(o, ", \"max_registers\": %u, \"barriers\": %u, \"param_bytes\": %u, \"params\": %u",
                k->max_regs, k->barriers, k->param_bytes, k->params);
        fputs(", \"cluster_dims\": ", o);
        json_dims(o, k->cluster_dims);
        fprintf(o, ", \"max_cluster_blocks\": %u, \"warp_sync_ops\": %s, \"code_bytes\": %llu}",
                k->max_cluster_rank, k->warp_sync_ops ? "true" : "false",
                (unsigned long long)k->code_bytes);
    } else {
        fputs("      ", o);
        cc_text_fputs(k->name, o); /* names come from the binary: escaped */
        if (strcmp(dem, k->name) != 0) {
            fputs("  [", o);
            cc_text_fputs(dem, o);
            fputc(']', o);
        }
        fputs("\n        ", o);
        if (k->has_regs)
            fprintf(o, "regs %u", k->regs);
        else
            fputs("regs ?", o);
        fprintf(o, ", shared %u B, local %u B", k->static_smem, k->local_bytes);
        if (k->max_threads[0])
            fprintf(o, ", max threads %ux%ux%u", k->max_threads[0], k->max_threads[1],
                    k->max_threads[2]);
        if (k->req_threads[0])
            fprintf(o, ", req threads %ux%ux%u", k->req_threads[0], k->req_threads[1],
                    k->req_threads[2]);
        if (k->max_regs && k->max_regs != 255)
            fprintf(o, ", reg cap %u", k->max_regs);
        fprintf(o, ", barriers %u, params %u B", k->barriers, k->param_bytes);
        if (k->cluster_dims[0])
            fprintf(o, ", cluster %ux%ux%u", k->cluster_dims[0], k->cluster_dims[1],
                    k->cluster_dims[2]);
        if (k->max_cluster_rank)
            fprintf(o, ", max cluster blocks %u", k->max_cluster_rank);
        if (k->warp_sync_ops)
            fputs(", warp-sync ops", o);
        fputc('\n', o);
    }
    kc->n++;
    return 0;
}

static int print_ptx_kernel(const cc_ptx_entry *e, void *user)
{
    kernel_ctx *kc = user;
    FILE *o = kc->c->out;
    char *name = strndup(e->name, e->name_len);
    if (!name) return 0;
    const char *dem = cc_demangle_cached(kc->c->names, name);
    if (kc->c->json) {
        fputs(kc->n ? ",\n          {\"name\": " : "\n          {\"name\": ", o);
        json_cstr(o, name);
        fputs(", \"demangled\": ", o);
        json_cstr(o, dem);
        fputs(", \"max_threads\": ", o);
        json_dims(o, e->maxntid);
        fputs(", \"req_threads\": ", o);
        json_dims(o, e->reqntid);
        fprintf(o, ", \"min_blocks\": %u, \"max_registers\": %u}", e->minnctapersm, e->maxnreg);
    } else {
        fputs("      ", o);
        cc_text_fputs(name, o); /* names come from the binary: escaped */
        if (strcmp(dem, name) != 0) {
            fputs("  [", o);
            cc_text_fputs(dem, o);
            fputc(']', o);
        }
        if (e->maxntid[0])
            fprintf(o, "  max threads %ux%ux%u", e->maxntid[0], e->maxntid[1], e->maxntid[2]);
        if (e->minnctapersm)
            fprintf(o, "  min blocks %u", e->minnctapersm);
        if (e->maxnreg)
            fprintf(o, "  max regs %u", e->maxnreg);
        fputc('\n', o);
    }
    free(name);
    kc->n++;
    return 0;
}

/* ---- entries ---- */
typedef struct file_ctx {
    inspect_ctx *c;
    const cc_scan_stats *stats;
    char error[320];   /* first problem inside the file (entry-level), if any */
} file_ctx;

static void entry_arch(const cc_code_image *img, const cc_cubin_info *ci, const cc_ptx_module *pm,
                       char *buf, size_t len)
{
    if (img->in_fatbin) {
        cc_fatbin_arch_name(&img->entry, buf, len);
        /* A raw flag may be missing on old toolkits: take the variant from the cubin. */
        if (!img->entry.arch_suffix && ci && ci->arch_suffix && strlen(buf) + 2 <= len) {
            size_t n = strlen(buf);
            buf[n] = ci->arch_suffix;
            buf[n + 1] = 0;
        }
    } else if (ci) {
        if (ci->arch_suffix)
            snprintf(buf, len, "sm_%u%c", ci->arch, ci->arch_suffix);
        else
            snprintf(buf, len, "sm_%u", ci->arch);
    } else if (pm && pm->target[0]) {
        /* .target sm_90a -> compute_90a, the name nvcc and the fatbin use for PTX. */
        const char *t = strncmp(pm->target, "sm_", 3) == 0 ? pm->target + 3 : pm->target;
        snprintf(buf, len, "compute_%s", t);
    } else {
        snprintf(buf, len, "unknown");
    }
}

static int on_image(const cc_code_image *img, void *user)
{
    file_ctx *fc = user;
    inspect_ctx *c = fc->c;
    FILE *o = c->out;
    open_file(c, fc->stats);
    int sass = img->kind == CC_FATBIN_KIND_ELF, ptx = img->kind == CC_FATBIN_KIND_PTX;
    cc_cubin_info ci;
    cc_ptx_module pm;
    int have_ci = 0, have_pm = 0;
    char err[256] = "";
    if (img->data && sass) {
        if (cc_cubin_inspect(img->data, img->size, &ci, err, sizeof err) == 0)
            have_ci = 1;
    } else if (img->data && ptx) {
        cc_ptx_scan(img->data, img->size, &pm, NULL, NULL);
        have_pm = 1;
    }
    char arch[48];
    entry_arch(img, have_ci ? &ci : NULL, have_pm ? &pm : NULL, arch, sizeof arch);
    const char *kind = sass ? "sass" : ptx ? "ptx" : "other";
    const cc_fatbin_entry *e = img->in_fatbin ? &img->entry : NULL;
    const char *problem = NULL;
    if (!img->data) {
        problem = img->error;
        if (e && !cc_compression_supported(e->compression))
            c->unreadable_entries++;
        else if (!fc->error[0])
            snprintf(fc->error, sizeof fc->error, "entry %u: %s", c->index, img->error);
    } else if (sass && !have_ci) {
        problem = err;
        if (!fc->error[0])
            snprintf(fc->error, sizeof fc->error, "entry %u: %s", c->index, err);
    }
    if (c->json) {
        fputs(c->index ? ",\n      {" : "\n      {", o);
        fprintf(o, "\"kind\": \"%s\", \"arch\": \"%s\"", kind, arch);
        if (img->member) {
            fputs(", \"member\": ", o);
            json_cstr(o, img->member);
        }
        if (e) {
            fprintf(o, ", \"container\": %u, \"section\": ", e->container);
            json_cstr(o, img->section);
            fprintf(o, ", \"compression\": \"%s\", \"stored_bytes\": %llu, \"uncompressed_bytes\": "
                    "%llu, \"debug\": %s", cc_compression_name(e->compression),
                    (unsigned long long)e->stored_size, (unsigned long long)e->uncompressed_size,
                    (e->flags & CC_FATBIN_FLAG_DEBUG) ? "true" : "false");
        } else {
            fprintf(o, ", \"compression\": \"none\", \"stored_bytes\": %zu, \"uncompressed_bytes\": "
                    "%zu", img->size, img->size);
        }
        if (ptx) {
            if (have_pm && pm.version_major)
                fprintf(o, ", \"ptx_isa\": \"%u.%u\"", pm.version_major, pm.version_minor);
            else if (e)
                fprintf(o, ", \"ptx_isa\": \"%u.%u\"", e->version_major, e->version_minor);
        }
        if (e && e->options) {
            fputs(", \"ptxas_options\": ", o);
            json_str(o, e->options, e->options_len);
        }
        if (have_ci)
            fprintf(o, ", \"line_info\": %s, \"ptx_line_info\": %s, \"relocatable\": %s",
                    ci.has_line_info ? "true" : "false", ci.has_ptx_line_info ? "true" : "false",
                    ci.elf_type == 1 ? "true" : "false");
        if (problem) {
            fputs(", \"error\": ", o);
            json_cstr(o, problem);
        }
        fputs(", \"kernels\": [", o);
    } else {
        fprintf(o, "  [%u] %-4s %-14s", c->index, kind, arch);
        if (img->member) {
            fputs(" member ", o);
            cc_text_fputs(img->member, o);
        }
        if (e) {
            if (e->compression != CC_COMPRESS_NONE)
                fprintf(o, " %s %llu -> %llu B", cc_compression_name(e->compression),
                        (unsigned long long)e->stored_size, (unsigned long long)e->uncompressed_size);
            else
                fprintf(o, " uncompressed %llu B", (unsigned long long)e->stored_size);
        } else {
            fprintf(o, " %zu B", img->size);
        }
        if (ptx && have_pm && pm.version_major)
            fprintf(o, ", PTX ISA %u.%u", pm.version_major, pm.version_minor);
        else if (ptx && e)
            fprintf(o, ", PTX ISA %u.%u", e->version_major, e->version_minor);
        if (have_ci)
            fprintf(o, ", line info %s%s", ci.has_line_info ? "yes" : "no",
                    ci.elf_type == 1 ? ", relocatable" : "");
        if (e && (e->flags & CC_FATBIN_FLAG_DEBUG))
            fputs(", debug (-G)", o);
        fputc('\n', o);
        if (problem)
            fprintf(o, "      (contents not readable: %s)\n", problem);
    }
    kernel_ctx kc = {c, 0};
    if (have_ci) {
        char kerr[256];
        if (cc_cubin_kernels(img->data, img->size, print_sass_kernel, &kc, kerr, sizeof kerr) < 0 &&
            !fc->error[0])
            snprintf(fc->error, sizeof fc->error, "entry %u: %s", c->index, kerr);
    } else if (have_pm) {
        cc_ptx_scan(img->data, img->size, &pm, print_ptx_kernel, &kc);
    }
    if (c->json)
        fputs(kc.n ? "\n        ]}" : "]}", o);
    c->index++;
    return 0;
}

/* Inspect one regular file. explicit_arg: named on the command line (listed even without code). */
static void inspect_file(inspect_ctx *c, const char *path, int explicit_arg)
{
    char err[512];
    cc_scan_stats st;
    file_ctx fc;
    memset(&fc, 0, sizeof fc);
    fc.c = c;
    fc.stats = &st;
    c->path = path;
    c->listed = 0;
    c->index = 0;
    c->files++;
    memset(&st, 0, sizeof st);
    int rc = cc_binary_scan(path, on_image, &fc, &st, err, sizeof err);
    const char *error = rc != 0 ? err : fc.error[0] ? fc.error : NULL;
    if (error) {
        c->failed++;
        cc_cli_error("inspect: %s: %s", path, error);
        if (c->json)
            open_file(c, &st);
    } else if (st.images) {
        c->with_code++;
    } else {
        c->without_code++;
        if (explicit_arg && !c->json) {
            cc_text_fputs(path, c->out);
            fprintf(c->out, " (%s): no CUDA device code\n", cc_file_kind_name(st.kind));
        } else if (explicit_arg) {
            open_file(c, &st);
        }
    }
    close_file(c, error);
}

static void inspect_path(inspect_ctx *c, const char *path, int explicit_arg, int depth)
{
    struct stat sb;
    if (stat(path, &sb) != 0) {
        c->files++;
        c->failed++;
        cc_cli_error("inspect: %s: %s", path, strerror(errno));
        return;
    }
    if (!S_ISDIR(sb.st_mode)) {
        if (S_ISREG(sb.st_mode))
            inspect_file(c, path, explicit_arg);
        else if (explicit_arg) {
            c->files++;
            c->failed++;
            cc_cli_error("inspect: %s: not a regular file or directory", path);
        }
        return;
    }
    if (depth >= MAX_DEPTH)
        return;
    struct dirent **names = NULL;
    int n = scandir(path, &names, NULL, alphasort);
    if (n < 0) {
        c->files++;
        c->failed++;
        cc_cli_error("inspect: %s: %s", path, strerror(errno));
        return;
    }
    for (int i = 0; i < n; i++) {
        const char *nm = names[i]->d_name;
        if (strcmp(nm, ".") != 0 && strcmp(nm, "..") != 0) {
            char child[4096];
            size_t pl = strlen(path);
            int slash = pl > 0 && path[pl - 1] == '/';
            if (snprintf(child, sizeof child, "%s%s%s", path, slash ? "" : "/", nm) <
                (int)sizeof child) {
                struct stat cs;
                /* Do not follow symbolic links to directories (cycles). */
                if (lstat(child, &cs) == 0 && !S_ISLNK(cs.st_mode))
                    inspect_path(c, child, 0, depth + 1);
                else if (lstat(child, &cs) == 0 && S_ISLNK(cs.st_mode) &&
                         stat(child, &cs) == 0 && S_ISREG(cs.st_mode))
                    inspect_file(c, child, 0);
            }
        }
        free(names[i]);
    }
    free(names);
}

int cc_cmd_inspect(int argc, char **argv)
{
    inspect_ctx c;
    memset(&c, 0, sizeof c);
    c.out = stdout;
    c.first_file = 1;
    int npaths = 0, only_paths = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_paths && strcmp(a, "--") == 0) {
            only_paths = 1;
        } else if (!only_paths && (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)) {
            fputs(usage_text, stdout);
            return 0;
        } else if (!only_paths && strcmp(a, "--json") == 0) {
            c.json = 1;
        } else if (!only_paths && a[0] == '-' && a[1]) {
            cc_cli_usage_error("inspect", "unknown option '%s'", a);
            return 2;
        } else {
            npaths++;
        }
    }
    if (npaths == 0) {
        cc_cli_usage_error("inspect", "no file or directory given");
        return 2;
    }
    c.names = cc_demangle_cache_new(); /* NULL: names are shown mangled only */
    if (c.json)
        fputs("{\n  \"files\": [", c.out);
    only_paths = 0;
    for (int i = 1; i < argc; i++) {
        if (!only_paths && strcmp(argv[i], "--") == 0) {
            only_paths = 1;
            continue;
        }
        if (!only_paths && argv[i][0] == '-' && argv[i][1])
            continue;
        inspect_path(&c, argv[i], 1, 0);
    }
    int zstd = cc_compression_supported(CC_COMPRESS_ZSTD),
        lz4 = cc_compression_supported(CC_COMPRESS_LZ4);
    if (c.json) {
        fprintf(c.out, "%s  ],\n  \"summary\": {\"files\": %u, \"with_device_code\": %u, "
                "\"without_device_code\": %u, \"failed\": %u, \"unreadable_entries\": %u, "
                "\"zstd\": %s, \"lz4\": %s}\n}\n", c.first_file ? "" : "\n", c.files,
                c.with_code, c.without_code, c.failed, c.unreadable_entries,
                zstd ? "true" : "false", lz4 ? "true" : "false");
    } else {
        fprintf(c.out, "%u file(s): %u with device code, %u without, %u failed\n", c.files,
                c.with_code, c.without_code, c.failed);
        if (c.unreadable_entries)
            fprintf(c.out, "%u compressed entr%s not readable: cucheck was built without %s%s%s\n",
                    c.unreadable_entries, c.unreadable_entries == 1 ? "y" : "ies",
                    zstd ? "" : "libzstd", !zstd && !lz4 ? " and " : "", lz4 ? "" : "liblz4");
    }
    fflush(c.out);
    cc_demangle_cache_free(c.names);
    return c.failed ? 1 : 0;
}
