/* The first run's `async-error` finding after a second run (rerun.h): made exact with the
 * launch the second run named, or kept with a line saying why it was not narrowed. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/async_error/rerun.h"

/* "#a, #b, #c", oldest first (the plan lists newest first). */
static void id_list(const cc_rerun_plan *plan, char *out, size_t outlen)
{
    size_t k = 0;
    out[0] = '\0';
    for (size_t i = plan->n; i-- > 0 && k < outlen;) {
        int w = snprintf(out + k, outlen - k, "%s#%" PRIu64, i + 1 == plan->n ? "" : ", ",
                         plan->launches[i].launch_id);
        if (w < 0) {
            break;
        }
        k += (size_t)w;
    }
}

static char *format_message(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *format_message(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (s != NULL) {
        va_start(ap, fmt);
        vsnprintf(s, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    return s;
}

int cc_rerun_exact(const cc_finding *first, const cc_rerun_plan *plan, int named,
                   cc_rerun_finding *out)
{
    memset(out, 0, sizeof *out);
    if (named < 0 || (size_t)named >= plan->n) {
        return -1;
    }
    const cc_related *hit = &first->related[plan->launches[named].related];
    const cc_related *graph = plan->graph ? &first->related[plan->graph_related] : NULL;
    char ids[CC_ASYNC_MAX_CANDIDATES * 24];
    id_list(plan, ids, sizeof ids);
    const char *what = hit->message != NULL ? hit->message : "the launch";
    out->message = format_message(
        "%s; caused by %s%s%s (named by a second run of the program with progress marks on %s "
        "%s: the only one that started and did not finish; the program ran twice)",
        plan->error, what, graph ? " of " : "",
        graph ? (graph->message != NULL ? graph->message : "its graph launch") : "",
        graph ? "its kernel nodes" : "the candidate launches", ids);
    if (out->message == NULL) {
        return -1;
    }
    out->f = *first;
    out->f.message = out->message;
    out->related[0] = *hit;
    out->related[0].role = "faulting launch";
    out->f.nrelated = 1;
    if (graph != NULL) {
        out->related[1] = *graph;
        out->related[1].role = "graph launch";
        out->f.nrelated = 2;
    }
    out->f.related = out->related;
    out->f.has_device = hit->has_device;
    out->f.device = hit->device;
    return 0;
}

int cc_rerun_annotate(const cc_finding *first, const char *prefix, const char *why,
                      int drop_hint, cc_rerun_finding *out)
{
    memset(out, 0, sizeof *out);
    const char *msg = first->message != NULL ? first->message : "";
    const char *hint = drop_hint ? strstr(msg, CC_ASYNC_TEXT_PROGRESS_HINT) : NULL;
    int before = hint != NULL ? (int)(hint - msg) : (int)strlen(msg);
    const char *after = hint != NULL ? hint + strlen(CC_ASYNC_TEXT_PROGRESS_HINT) : "";
    out->message = format_message("%.*s%s; %s: %s", before, msg, after, prefix, why);
    if (out->message == NULL) {
        return -1;
    }
    out->f = *first;
    out->f.message = out->message;
    return 0;
}

void cc_rerun_finding_free(cc_rerun_finding *r)
{
    free(r->message);
    memset(r, 0, sizeof *r);
}
