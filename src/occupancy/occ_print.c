/* Text and JSON rendering of one occupancy analysis (device, kernel, limits, limiters, allocation,
 * waves, reason, advice and, in JSON, optionally the what-if curves). */
#include "occupancy/occupancy.h"

#include <limits.h>

#define MAX_ADVICE 8

void cc_occ_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p == '\n') fputs("\\n", out);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

static void limit_row(FILE *out, const char *name, int v, unsigned bit, unsigned mask)
{
    if (v == CC_OCC_UNLIMITED) fprintf(out, "    %-22s %9s\n", name, "-");
    else fprintf(out, "    %-22s %9d%s\n", name, v, (mask & bit) ? "  <- limiter" : "");
}

void cc_occ_print_text(FILE *out, const cc_occ_device *d, const cc_occ_kernel *k,
                       const cc_occ_analysis *a, const cc_occ_labels *l, int with_advice)
{
    fprintf(out, "%s%s on %s (%s, compute capability %d.%d, %d SMs)\n",
            l->kernel_name ? "kernel " : "occupancy", l->kernel_name ? l->kernel_name : "", l->arch, l->device_name, d->major, d->minor, d->num_sms);
    fprintf(out, "  block: %d threads (%d warps), %d registers/thread, shared memory %zu B static + "
                 "%zu B dynamic",
            k->threads, a->warps_per_block, k->regs, k->smem_static, k->smem_dynamic);
    if (k->max_threads > 0 && k->min_blocks > 0)
        fprintf(out, ", __launch_bounds__(%d, %d)", k->max_threads, k->min_blocks);
    else if (k->max_threads > 0)
        fprintf(out, ", __launch_bounds__(%d)", k->max_threads);
    if (k->reg_cap > 0) fprintf(out, ", register cap %d", k->reg_cap);
    if (k->local_bytes) fprintf(out, ", %zu B local/thread", k->local_bytes);
    fputc('\n', out);
    if (a->status != CC_OCC_OK) {
        fprintf(out, "  error: %s\n", a->reason);
        return;
    }
    fprintf(out, "  allocated per block: %d registers, %zu B shared memory",
            a->r.alloc_regs_per_block, a->r.alloc_smem_per_block);
    if (d->reserved_smem_per_block)
        fprintf(out, " (incl. %zu B reserved by the driver)", d->reserved_smem_per_block);
    fputc('\n', out);
    fprintf(out, "  active blocks per SM:  %d\n", a->r.blocks_per_sm);
    fprintf(out, "  active warps per SM:   %d of %d\n", a->warps_per_sm, a->max_warps_per_sm);
    fprintf(out, "  theoretical occupancy: %.1f%%\n", 100.0 * a->occupancy);
    if (a->r.blocks_per_sm == 0) fprintf(out, "  cannot launch: %s\n", a->reason);
    fprintf(out, "  block limits per SM:\n");
    unsigned m = a->r.limiting;
    limit_row(out, "warps", a->r.lim_warps, CC_OCC_LIMIT_WARPS, m);
    limit_row(out, "registers", a->r.lim_regs, CC_OCC_LIMIT_REGISTERS, m);
    limit_row(out, "shared memory", a->r.lim_smem, CC_OCC_LIMIT_SHARED_MEMORY, m);
    limit_row(out, "blocks per SM", a->r.lim_blocks, CC_OCC_LIMIT_BLOCKS, m);
    limit_row(out, "barriers", a->r.lim_barriers, CC_OCC_LIMIT_BARRIERS, m);
    if (a->r.lim_virtual != CC_OCC_UNLIMITED)
        limit_row(out, "virtual resources", a->r.lim_virtual, CC_OCC_LIMIT_VIRTUAL, m);
    const char *names[6];
    int n = cc_occ_limiter_names(m, names, 6);
    fprintf(out, "  limited by: ");
    for (int i = 0; i < n; i++) fprintf(out, "%s%s", i ? ", " : "", names[i]);
    fputc('\n', out);
    if (k->grid > 0 && a->r.blocks_per_sm > 0) {
        long long wave = (long long)a->r.blocks_per_sm * d->num_sms;
        fprintf(out, "  grid %lld blocks: %.2f waves per SM (%lld full wave%s of %lld blocks",
                k->grid, a->waves, a->full_waves, a->full_waves == 1 ? "" : "s", wave);
        if (a->tail_blocks) fprintf(out, " + a partial wave of %lld blocks", a->tail_blocks);
        fputs(")\n", out);
    }
    if (with_advice) {
        cc_occ_advice adv[MAX_ADVICE];
        int na = cc_occ_advise(d, k, adv, MAX_ADVICE);
        if (na) fprintf(out, "  advice:\n");
        for (int i = 0; i < na; i++) fprintf(out, "    - %s\n", adv[i].text);
    }
}

static void json_limit(FILE *out, const char *name, int v, int comma)
{
    fprintf(out, "\"%s\":", name);
    if (v == CC_OCC_UNLIMITED) fputs("null", out);
    else fprintf(out, "%d", v);
    if (comma) fputc(',', out);
}

static void json_curve(FILE *out, const cc_occ_curve *c)
{
    fprintf(out, "{\"title\":");
    cc_occ_json_string(out, c->title);
    fprintf(out, ",\"current_x\":%ld,\"current_warps\":%d,\"points\":[", c->current_x,
            c->current_warps);
    for (int i = 0; i < c->n; i++) fprintf(out, "%s[%ld,%d]", i ? "," : "", c->x[i], c->warps[i]);
    fputs("]}", out);
}

void cc_occ_print_json(FILE *out, const cc_occ_device *d, const cc_occ_kernel *k,
                       const cc_occ_analysis *a, const cc_occ_labels *l, int with_curves)
{
    fputs("{\"arch\":", out);
    cc_occ_json_string(out, l->arch);
    fputs(",\"device\":{\"name\":", out);
    cc_occ_json_string(out, l->device_name);
    fprintf(out, ",\"compute_capability\":\"%d.%d\",\"sms\":%d,\"max_threads_per_sm\":%d,"
                 "\"regs_per_sm\":%d,\"smem_per_sm\":%zu,\"smem_per_block_optin\":%zu,"
                 "\"reserved_smem_per_block\":%zu}",
            d->major, d->minor, d->num_sms, d->max_threads_per_sm, d->regs_per_sm, d->smem_per_sm,
            d->smem_per_block_optin, d->reserved_smem_per_block);
    fputs(",\"kernel\":{", out);
    if (l->kernel_name) {
        fputs("\"name\":", out);
        cc_occ_json_string(out, l->kernel_name);
        fputc(',', out);
    }
    cc_occ_func f;
    cc_occ_state s;
    cc_occ_kernel_to_func(d, k, &f, &s);
    fprintf(out, "\"threads\":%d,\"registers\":%d,\"smem_static\":%zu,\"smem_dynamic\":%zu,"
                 "\"max_dynamic_smem\":%zu,\"launch_bounds\":{\"max_threads\":%d,\"min_blocks\":%d},"
                 "\"local_bytes\":%zu,\"register_cap\":%d,\"carveout\":%d,\"barriers\":%d}",
            k->threads, k->regs, k->smem_static, k->smem_dynamic, f.max_dyn_smem, k->max_threads,
            k->min_blocks, k->local_bytes, k->reg_cap, k->carveout, k->barriers);
    if (a->status != CC_OCC_OK) {
        fputs(",\"blocks_per_sm\":0,\"error\":", out);
        cc_occ_json_string(out, a->reason);
        fputc('}', out);
        return;
    }
    fprintf(out, ",\"blocks_per_sm\":%d,\"warps_per_block\":%d,\"warps_per_sm\":%d,"
                 "\"max_warps_per_sm\":%d,\"occupancy\":%.6f,\"limiters\":[",
            a->r.blocks_per_sm, a->warps_per_block, a->warps_per_sm, a->max_warps_per_sm,
            a->occupancy);
    const char *names[6];
    int n = cc_occ_limiter_names(a->r.limiting, names, 6);
    for (int i = 0; i < n; i++) fprintf(out, "%s\"%s\"", i ? "," : "", names[i]);
    fputs("],\"block_limits\":{", out);
    json_limit(out, "warps", a->r.lim_warps, 1);
    json_limit(out, "registers", a->r.lim_regs, 1);
    json_limit(out, "shared_memory", a->r.lim_smem, 1);
    json_limit(out, "blocks", a->r.lim_blocks, 1);
    json_limit(out, "barriers", a->r.lim_barriers, 1);
    json_limit(out, "virtual_resources", a->r.lim_virtual, 0);
    fprintf(out, "},\"allocated\":{\"registers_per_block\":%d,\"shared_memory_per_block\":%zu}",
            a->r.alloc_regs_per_block, a->r.alloc_smem_per_block);
    if (a->r.blocks_per_sm == 0) {
        fputs(",\"reason\":", out);
        cc_occ_json_string(out, a->reason);
    }
    if (k->grid > 0) {
        fprintf(out, ",\"grid\":%lld", k->grid);
        if (a->r.blocks_per_sm > 0)
            fprintf(out, ",\"waves_per_sm\":%.4f,\"full_waves\":%lld,\"tail_blocks\":%lld", a->waves,
                    a->full_waves, a->tail_blocks);
    }
    cc_occ_advice adv[MAX_ADVICE];
    int na = cc_occ_advise(d, k, adv, MAX_ADVICE);
    fputs(",\"advice\":[", out);
    for (int i = 0; i < na; i++) {
        fprintf(out, "%s{\"kind\":\"%s\",\"occupancy\":%.6f,\"warps_per_sm\":%d,\"text\":",
                i ? "," : "", adv[i].kind, adv[i].new_occupancy, adv[i].new_warps_per_sm);
        cc_occ_json_string(out, adv[i].text);
        fputc('}', out);
    }
    fputc(']', out);
    if (with_curves) {
        static const char *keys[3] = {"block_size", "registers", "shared_memory"};
        fputs(",\"curves\":{", out);
        for (int i = 0; i < 3; i++) {
            cc_occ_curve c;
            fprintf(out, "%s\"%s\":", i ? "," : "", keys[i]);
            if (cc_occ_curve_build(d, k, (cc_occ_curve_kind)i, &c) == 0) {
                json_curve(out, &c);
                cc_occ_curve_free(&c);
            } else {
                fputs("null", out);
            }
        }
        fputc('}', out);
    }
    fputc('}', out);
}
