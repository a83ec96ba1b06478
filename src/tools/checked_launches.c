/* The checked-launches counters of the instrumenting tools (checked_launches.h) and the text of
 * what they counted. */
#include <inttypes.h>
#include <stdio.h>
#include "tools/checked_launches.h"
#include "core/number_text.h"

void cc_checked_launches_init(cc_checked_launches *c)
{
    cc_hashmap_init_fixed(&c->kernels, c->kernel_slots, c->kernel_used, CC_CHECKED_KERNEL_TABLE);
    c->nkernels_checked = c->kernels_overflow = 0;
    c->nlaunches = c->ninstrumented = 0;
    c->names = cc_strtab_new();
}

void cc_checked_launches_free(cc_checked_launches *c)
{
    cc_strtab_free(c->names);
    c->names = NULL;
}

void cc_checked_launches_add(cc_checked_launches *c, const char *name, int instrumented)
{
    c->nlaunches++;
    /* Names are interned while the table has room for another kernel: the copies stay as
     * bounded as the table (past it, each name is hashed). */
    uint64_t h = 0;
    if (c->names != NULL && c->kernels.count < CC_CHECKED_KERNEL_TABLE) {
        (void)cc_strtab_intern(c->names, name, &h); /* sets h, out of memory too */
    } else {
        h = cc_hash_str(name != NULL ? name : "");
    }
    /* launches that ran checked, by the hash of the kernel's name; NULL: table full */
    uint64_t *checked = cc_hashmap_get_or_add(&c->kernels, h, 0, NULL);
    if (checked == NULL) {
        c->kernels_overflow++;
    }
    if (instrumented) {
        c->ninstrumented++;
        if (checked != NULL && (*checked)++ == 0) {
            c->nkernels_checked++;
        }
    }
}

void cc_checked_launches_summary(const cc_checked_launches *c, char *out, size_t len)
{
    char kc[32], kn[32], li[32], ln[32];
    cc_grouped_digits(c->nkernels_checked, kc, sizeof kc);
    cc_grouped_digits(c->kernels.count, kn, sizeof kn);
    cc_grouped_digits(c->ninstrumented, li, sizeof li);
    cc_grouped_digits(c->nlaunches, ln, sizeof ln);
    snprintf(out, len, "kernels checked %s/%s, launches instrumented %s/%s", kc, kn, li, ln);
}

int cc_checked_launches_overflow_note(const cc_checked_launches *c, const char *tool, char *out,
                                      size_t len)
{
    if (c->kernels_overflow == 0) {
        return 0;
    }
    snprintf(out, len, "%s: more than %d distinct kernels; %" PRIu64 " launches were not counted "
             "per kernel", tool, CC_CHECKED_KERNEL_TABLE, c->kernels_overflow);
    return 1;
}
