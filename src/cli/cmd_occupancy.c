/* `cucheck occupancy`: option parsing and validation for the occupancy calculator (a hand-described
 * kernel or the kernels of a binary, on an --arch preset or a live --gpu), then text or JSON
 * output, advice, what-if tables (--curves) and SVG plots (--plot DIR). Bad input: one line, exit 2. */
#include "cli/commands.h"

#include <errno.h>
#include <limits.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "occupancy/occ_binary.h"
#include "occupancy/occupancy.h"

static const char usage[] =
    "usage: cucheck occupancy (--arch sm_XX | --gpu N) --threads T --regs R [options]\n"
    "       cucheck occupancy --binary FILE [--kernel NAME|REGEX] [--arch sm_XX | --gpu N] [--threads T]\n"
    "       cucheck occupancy --list-archs\n"
    "\n"
    "  --arch A            architecture preset: sm_75, sm_80, ..., sm_120, or a part name (a100, h100)\n"
    "  --gpu N             read the limits of live device N (CUDA driver, loaded at run time)\n"
    "  --threads T         threads per block\n"
    "  --regs R            registers per thread (0..255)\n"
    "  --smem-static S     static shared memory per block (bytes; K suffix = KiB)\n"
    "  --smem-dynamic D    dynamic shared memory per block; if static + dynamic exceeds 48 KiB the\n"
    "                      kernel is taken to have opted in (MaxDynamicSharedMemorySize = D)\n"
    "  --max-dynamic-smem M  cudaFuncAttributeMaxDynamicSharedMemorySize, if set explicitly\n"
    "  --carveout P        preferred shared-memory carveout percent (0..100; default: driver's)\n"
    "  --max-threads T     __launch_bounds__ max threads per block\n"
    "  --barriers N        barriers per block (sm_90+; default 1)\n"
    "  --grid G            blocks in the grid (waves per SM)\n"
    "  --binary FILE       executable, .so, .fatbin or .cubin: one analysis per kernel\n"
    "  --kernel NAME|RE    only kernels whose (mangled) name equals NAME or matches RE\n"
    "  --json              one JSON object\n"
    "  --curves            what-if tables (block size, registers, shared memory)\n"
    "  --plot DIR          write the three what-if curves as SVG files into DIR\n"
    "  --no-advice         leave out the advice\n";

typedef struct {
    const char *arch;
    int gpu;
    cc_occ_kernel k;
    int have_threads, have_regs;
    const char *binary, *kernel_re, *plot_dir;
    int json, curves, advice;
} occ_opts;

static int bad(const char *fmt, const char *a, const char *b)
{
    fprintf(stderr, "cucheck: occupancy: ");
    fprintf(stderr, fmt, a, b);
    fputc('\n', stderr);
    return 2;
}

/* Integer in [lo, hi]; 0 ok. */
static int parse_int(const char *opt, const char *v, long long lo, long long hi, long long *out)
{
    char *end;
    if (!v || !*v) return bad("%s needs a value%s", opt, "");
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || *end || x < lo || x > hi) {
        char range[96];
        snprintf(range, sizeof range, "a whole number from %lld to %lld", lo, hi);
        fprintf(stderr, "cucheck: occupancy: %s expects %s, got '%s'\n", opt, range, v);
        return 2;
    }
    *out = x;
    return 0;
}

/* Bytes with an optional K/KB/KiB or M/MB/MiB suffix (powers of 1024); at most 64 MiB. */
static int parse_size(const char *opt, const char *v, size_t *out)
{
    char *end;
    if (!v || !*v) return bad("%s needs a value%s", opt, "");
    errno = 0;
    double x = strtod(v, &end);
    double mul = 1;
    if (*end == 'K' || *end == 'k') mul = 1024, end++;
    else if (*end == 'M' || *end == 'm') mul = 1024.0 * 1024, end++;
    if (mul > 1 && (*end == 'B' || *end == 'b')) end++;
    else if (mul > 1 && strcmp(end, "iB") == 0) end += 2;
    double bytes = x * mul;
    if (errno || end == v || *end || !(bytes >= 0) || bytes > 64.0 * 1024 * 1024 ||
        bytes != (double)(size_t)bytes)
        return bad("%s expects a byte count from 0 to 64M (e.g. 49152 or 48K), got '%s'", opt, v);
    *out = (size_t)bytes;
    return 0;
}

static int parse_opts(int argc, char **argv, occ_opts *o)
{
    memset(o, 0, sizeof *o);
    o->gpu = -1;
    o->advice = 1;
    cc_occ_kernel_init(&o->k);
    for (int i = 1; i < argc; i++) {
        char *a = argv[i], *val = NULL;
        char name[64];
        if (strncmp(a, "--", 2) != 0) return bad("unexpected argument '%s'%s", a, "");
        const char *eq = strchr(a, '=');
        size_t len = eq ? (size_t)(eq - a) : strlen(a);
        if (len >= sizeof name) return bad("unknown option '%s'%s", a, "");
        memcpy(name, a, len);
        name[len] = 0;
        int flag = !strcmp(name, "--json") || !strcmp(name, "--curves") ||
                   !strcmp(name, "--no-advice") || !strcmp(name, "--help") ||
                   !strcmp(name, "--list-archs");
        if (!flag) {
            if (eq) val = (char *)eq + 1;
            else if (i + 1 < argc) val = argv[++i];
            else return bad("%s needs a value%s", name, "");
        } else if (eq) {
            return bad("%s takes no value%s", name, "");
        }
        long long x;
        int rc = 0;
        if (!strcmp(name, "--help")) { fputs(usage, stdout); exit(0); }
        else if (!strcmp(name, "--list-archs")) o->arch = "list";
        else if (!strcmp(name, "--json")) o->json = 1;
        else if (!strcmp(name, "--curves")) o->curves = 1;
        else if (!strcmp(name, "--no-advice")) o->advice = 0;
        else if (!strcmp(name, "--arch")) o->arch = val;
        else if (!strcmp(name, "--gpu")) { rc = parse_int(name, val, 0, 1023, &x); o->gpu = (int)x; }
        else if (!strcmp(name, "--threads")) { rc = parse_int(name, val, 1, 1 << 20, &x); o->k.threads = (int)x; o->have_threads = 1; }
        else if (!strcmp(name, "--regs")) { rc = parse_int(name, val, 0, 255, &x); o->k.regs = (int)x; o->have_regs = 1; }
        else if (!strcmp(name, "--smem-static")) rc = parse_size(name, val, &o->k.smem_static);
        else if (!strcmp(name, "--smem-dynamic")) rc = parse_size(name, val, &o->k.smem_dynamic);
        else if (!strcmp(name, "--max-dynamic-smem")) rc = parse_size(name, val, &o->k.max_dyn_smem);
        else if (!strcmp(name, "--carveout")) { rc = parse_int(name, val, -1, 100, &x); o->k.carveout = (int)x; }
        else if (!strcmp(name, "--max-threads")) { rc = parse_int(name, val, 1, 1 << 20, &x); o->k.max_threads = (int)x; }
        else if (!strcmp(name, "--barriers")) { rc = parse_int(name, val, 0, 16, &x); o->k.barriers = (int)x; }
        else if (!strcmp(name, "--grid")) { rc = parse_int(name, val, 1, LLONG_MAX / 2, &x); o->k.grid = x; }
        else if (!strcmp(name, "--binary")) o->binary = val;
        else if (!strcmp(name, "--kernel")) o->kernel_re = val;
        else if (!strcmp(name, "--plot")) o->plot_dir = val;
        else return bad("unknown option '%s' (see 'cucheck occupancy --help')%s", name, "");
        if (rc) return rc;
    }
    return 0;
}

static int list_archs(void)
{
    printf("%-8s %-5s %-34s %5s %8s %8s %9s %9s %5s\n", "arch", "cc", "typical part", "SMs",
           "thr/SM", "regs/SM", "smem/SM", "optin/blk", "resv");
    for (int i = 0; i < cc_occ_preset_count(); i++) {
        const cc_occ_preset *p = cc_occ_preset_at(i);
        printf("%-8s %2d.%-2d %-34s %5d %8d %8d %9zu %9zu %5zu\n", p->arch, p->dev.major,
               p->dev.minor, p->part, p->dev.num_sms, p->dev.max_threads_per_sm, p->dev.regs_per_sm,
               p->dev.smem_per_sm, p->dev.smem_per_block_optin, p->dev.reserved_smem_per_block);
    }
    return 0;
}

/* Threads, static shared memory and the like that no device of this arch can take: exit 2. */
static int validate_kernel(const cc_occ_device *d, const char *arch, const cc_occ_kernel *k)
{
    char n1[64], n2[160];
    if (k->threads > d->max_threads_per_block) {
        snprintf(n1, sizeof n1, "%d", k->threads);
        snprintf(n2, sizeof n2, "%s limit of %d threads per block", arch, d->max_threads_per_block);
        return bad("--threads %s exceeds the %s", n1, n2);
    }
    if (k->smem_static > 48 * 1024) {
        snprintf(n1, sizeof n1, "%zu", k->smem_static);
        return bad("--smem-static %s exceeds 48 KB, the most static shared memory a kernel can "
                   "declare (use --smem-dynamic)%s", n1, "");
    }
    if (k->max_threads > d->max_threads_per_block) {
        snprintf(n1, sizeof n1, "%d", k->max_threads);
        snprintf(n2, sizeof n2, "%s limit of %d threads per block", arch, d->max_threads_per_block);
        return bad("--max-threads %s exceeds the %s", n1, n2);
    }
    return 0;
}

typedef struct {
    cc_occ_device dev;
    char arch[24];
    char name[160];
} target;

static int resolve_target(const occ_opts *o, target *t)
{
    if (o->gpu >= 0 && o->arch) return bad("give either --arch or --gpu, not both%s%s", "", "");
    if (o->gpu >= 0) {
        char err[256], name[128] = "";
        if (cc_occ_device_from_gpu(o->gpu, &t->dev, name, sizeof name, err, sizeof err) != 0) {
            fprintf(stderr, "cucheck: occupancy: %s\n", err);
            return 2;
        }
        snprintf(t->arch, sizeof t->arch, "sm_%d%d", t->dev.major, t->dev.minor);
        snprintf(t->name, sizeof t->name, "%s, GPU %d", name, o->gpu);
        int bs;
        if (cc_occ_smem_granularity(&t->dev, &bs) != CC_OCC_OK)
            return bad("GPU %s has compute capability %s, which the occupancy rules do not know",
                       t->name, t->arch);
        return 0;
    }
    const cc_occ_preset *p = cc_occ_preset_find(o->arch);
    if (!p) return bad("unknown architecture '%s' (known: %s)", o->arch, cc_occ_preset_names());
    t->dev = p->dev;
    snprintf(t->arch, sizeof t->arch, "%s", p->arch);
    snprintf(t->name, sizeof t->name, "%s preset", p->part);
    return 0;
}

static int write_plots(const occ_opts *o, const target *t, const cc_occ_kernel *k, const char *kname)
{
    if (mkdir(o->plot_dir, 0777) != 0 && errno != EEXIST)
        return bad("--plot: cannot create directory %s: %s", o->plot_dir, strerror(errno));
    char sub[320];
    snprintf(sub, sizeof sub, "%s%s%s (%s): %d threads, %d registers, %zu B shared memory per block",
             kname ? kname : "", kname ? " on " : "", t->arch, t->name, k->threads, k->regs,
             k->smem_static + k->smem_dynamic);
    for (int i = 0; i < 3; i++) {
        cc_occ_curve c;
        char path[4096];
        if (cc_occ_curve_build(&t->dev, k, (cc_occ_curve_kind)i, &c) != 0) continue;
        snprintf(path, sizeof path, "%s/%s", o->plot_dir, cc_occ_curve_file_name((cc_occ_curve_kind)i));
        FILE *f = fopen(path, "w");
        int ok = f && cc_occ_curve_svg(f, &c, sub) == 0;
        if (f && fclose(f) != 0) ok = 0;
        cc_occ_curve_free(&c);
        if (!ok) return bad("--plot: cannot write %s%s", path, "");
        if (!o->json) printf("  plot: %s\n", path);
    }
    return 0;
}

static void print_curves(const target *t, const cc_occ_kernel *k)
{
    for (int i = 0; i < 3; i++) {
        cc_occ_curve c;
        if (cc_occ_curve_build(&t->dev, k, (cc_occ_curve_kind)i, &c) != 0) continue;
        putchar('\n');
        cc_occ_curve_print(stdout, &c);
        cc_occ_curve_free(&c);
    }
}

static int run_one(const occ_opts *o, const target *t, const cc_occ_kernel *k, const char *kname)
{
    cc_occ_analysis a;
    cc_occ_labels l = {t->arch, t->name, kname};
    cc_occ_analyze(&t->dev, k, &a);
    if (o->json) cc_occ_print_json(stdout, &t->dev, k, &a, &l, o->curves);
    else cc_occ_print_text(stdout, &t->dev, k, &a, &l, o->advice);
    if (!o->json && o->curves && a.status == CC_OCC_OK) print_curves(t, k);
    if (o->plot_dir && a.status == CC_OCC_OK) return write_plots(o, t, k, kname);
    return 0;
}

/* ---- --binary ---- */
typedef struct {
    const occ_opts *o;
    const target *fixed; /* NULL: each cubin on its own arch preset */
    regex_t re;
    int have_re;
    int matched, printed, rc;
    unsigned best_arch; /* the cubin arch chosen for a fixed target */
} bin_ctx;

static int name_matches(bin_ctx *b, const char *name)
{
    if (!b->o->kernel_re) return 1;
    if (!strcmp(name, b->o->kernel_re)) return 1;
    return b->have_re && regexec(&b->re, name, 0, NULL, 0) == 0;
}

/* For a fixed device: SASS of the same arch, else the newest older minor of the same major. */
static int pick_arch_cb(const char *arch_name, unsigned arch, const cc_kernel_info *k, void *user)
{
    (void)arch_name;
    (void)k;
    bin_ctx *b = user;
    unsigned want = (unsigned)(b->fixed->dev.major * 10 + b->fixed->dev.minor);
    if (arch / 10 == want / 10 && arch <= want && arch > b->best_arch) b->best_arch = arch;
    return 0;
}

static int kernel_cb(const char *arch_name, unsigned arch, const cc_kernel_info *ki, void *user)
{
    bin_ctx *b = user;
    if (!name_matches(b, ki->name)) return 0;
    target own;
    const target *t = b->fixed;
    if (t && arch != b->best_arch) return 0;
    if (!t) {
        char an[16];
        snprintf(an, sizeof an, "sm_%u", arch);
        const cc_occ_preset *p = cc_occ_preset_find(an);
        if (!p) {
            fprintf(stderr, "cucheck: occupancy: %s: no preset for %s, skipped (use --arch)\n",
                    ki->name, arch_name);
            return 0;
        }
        own.dev = p->dev;
        snprintf(own.arch, sizeof own.arch, "%s", arch_name);
        snprintf(own.name, sizeof own.name, "%s preset", p->part);
        t = &own;
    }
    b->matched++;
    cc_occ_kernel k;
    cc_occ_kernel_from_info(ki, &k);
    k.carveout = b->o->k.carveout;
    k.smem_dynamic = b->o->k.smem_dynamic;
    k.max_dyn_smem = b->o->k.max_dyn_smem;
    k.grid = b->o->k.grid;
    if (k.max_threads > t->dev.max_threads_per_block) k.max_threads = 0;
    if (b->o->have_threads) {
        k.threads = b->o->k.threads;
    } else if (k.max_threads > 0) {
        k.threads = k.max_threads;
    } else {
        cc_occ_func f;
        cc_occ_state s;
        int grid = 0, bs = 0;
        cc_occ_kernel_to_func(&t->dev, &k, &f, &s);
        if (cc_occ_max_potential_block_size(&grid, &bs, &t->dev, &f, &s, NULL, NULL,
                                            k.smem_dynamic) != CC_OCC_OK || bs <= 0)
            bs = 256;
        k.threads = bs;
    }
    if (b->o->json) fputs(b->printed ? "," : "", stdout);
    else if (b->printed) putchar('\n');
    b->printed++;
    int rc = run_one(b->o, t, &k, ki->name);
    if (rc) b->rc = rc;
    return rc != 0;
}

static int run_binary(const occ_opts *o, const target *fixed)
{
    bin_ctx b;
    char err[512];
    memset(&b, 0, sizeof b);
    b.o = o;
    b.fixed = fixed;
    if (o->kernel_re) {
        if (regcomp(&b.re, o->kernel_re, REG_EXTENDED | REG_NOSUB) == 0) b.have_re = 1;
    }
    if (fixed) {
        int n = cc_occ_binary_kernels(o->binary, pick_arch_cb, &b, err, sizeof err);
        if (n < 0) goto fail;
        if (b.best_arch == 0) {
            if (b.have_re) regfree(&b.re);
            return bad("%s holds no SASS that runs on %s", o->binary, fixed->arch);
        }
    }
    if (o->json) {
        fputs("{\"binary\":", stdout);
        cc_occ_json_string(stdout, o->binary);
        fputs(",\"kernels\":[", stdout);
    }
    int n = cc_occ_binary_kernels(o->binary, kernel_cb, &b, err, sizeof err);
    if (o->json) fputs("]}\n", stdout);
    if (n < 0) goto fail;
    if (b.have_re) regfree(&b.re);
    if (b.rc) return b.rc;
    if (n == 0) return bad("%s contains no cubin (no device code)%s", o->binary, "");
    if (b.matched == 0)
        return bad("no kernel in %s matches '%s'", o->binary, o->kernel_re ? o->kernel_re : "");
    if (err[0]) fprintf(stderr, "cucheck: occupancy: warning: %s\n", err);
    return 0;
fail:
    if (b.have_re) regfree(&b.re);
    fprintf(stderr, "cucheck: occupancy: %s\n", err);
    return 2;
}

int cc_cmd_occupancy(int argc, char **argv)
{
    occ_opts o;
    int rc = parse_opts(argc, argv, &o);
    if (rc) return rc;
    if (o.arch && !strcmp(o.arch, "list")) return list_archs();
    target t;
    if (o.binary) {
        if (o.have_regs || o.k.smem_static)
            return bad("--regs and --smem-static come from the binary with --binary%s%s", "", "");
        if (!o.arch && o.gpu < 0) return run_binary(&o, NULL);
        if ((rc = resolve_target(&o, &t))) return rc;
        if (o.have_threads && (rc = validate_kernel(&t.dev, t.arch, &o.k))) return rc;
        return run_binary(&o, &t);
    }
    if (!o.arch && o.gpu < 0) return bad("give --arch sm_XX or --gpu N (see 'cucheck occupancy --help')%s%s", "", "");
    if (!o.have_threads) return bad("--threads is required (threads per block)%s%s", "", "");
    if (!o.have_regs) return bad("--regs is required (registers per thread)%s%s", "", "");
    if (o.kernel_re) return bad("--kernel needs --binary%s%s", "", "");
    if ((rc = resolve_target(&o, &t))) return rc;
    if ((rc = validate_kernel(&t.dev, t.arch, &o.k))) return rc;
    rc = run_one(&o, &t, &o.k, NULL);
    if (o.json) putchar('\n');
    return rc;
}
