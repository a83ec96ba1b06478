/* The second run's plan and verdict (rerun.h): which candidates a first `async-error` finding
 * lists, the list the agent marks, and whether the second run's finding named one of them. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "core/hash.h"
#include "tools/async_error/rerun.h"

#define ROLE_FAULTING "faulting launch"
#define ROLE_CANDIDATE "candidate launch"
#define ROLE_NODE "candidate node"
#define ROLE_GRAPH "graph launch"

static int role_is(const cc_related *r, const char *role)
{
    return r->role != NULL && strcmp(r->role, role) == 0;
}

/* The name the binary gives a launch's kernel. */
static const char *binary_name(const cc_device_loc *d)
{
    return d->kernel_mangled != NULL ? d->kernel_mangled : d->kernel;
}

/* "<error> (<code>) surfaced in <call>": the message up to its first "; ". */
static void error_part(const char *msg, char *out, size_t outlen)
{
    const char *end = msg != NULL ? strstr(msg, "; ") : NULL;
    size_t n = msg == NULL ? 0 : end != NULL ? (size_t)(end - msg) : strlen(msg);
    if (n >= outlen) {
        n = outlen - 1;
    }
    memcpy(out, msg != NULL ? msg : "", n);
    out[n] = '\0';
}

int cc_rerun_plan_make(const cc_finding *f, cc_rerun_plan *plan, char *why, size_t whylen)
{
    memset(plan, 0, sizeof *plan);
    why[0] = '\0';
    if (f->kind == NULL || strcmp(f->kind, "async-error") != 0 || f->message == NULL) {
        return 0;
    }
    size_t graphs = 0, plain = 0, nodes = 0;
    for (uint32_t i = 0; i < f->nrelated; i++) {
        const cc_related *r = &f->related[i];
        int node = role_is(r, ROLE_NODE);
        if (role_is(r, ROLE_FAULTING) && r->has_device && r->device.kernel != NULL &&
            strcmp(r->device.kernel, "(graph)") == 0) {
            graphs++;
            plan->graph_related = i;
            continue;
        }
        if (!node && !role_is(r, ROLE_CANDIDATE)) {
            continue;
        }
        node ? nodes++ : plain++;
        if (!r->has_device || !(r->device.valid & CC_DLOC_KERNEL) || r->device.launch_id == 0 ||
            binary_name(&r->device) == NULL) {
            snprintf(why, whylen, "a candidate has no launch id");
            return 0;
        }
        if (plan->n == CC_ASYNC_MAX_CANDIDATES) {
            snprintf(why, whylen, "more launches were in flight than the finding lists");
            return 0;
        }
        cc_rerun_launch *l = &plan->launches[plan->n++];
        l->launch_id = r->device.launch_id;
        l->kernel = binary_name(&r->device);
        l->kernel_hash = cc_hash_str(l->kernel);
        l->related = i;
    }
    if (plain > 0 && nodes > 0) {
        return 0; /* not a shape the attribution makes */
    }
    plan->graph = nodes > 0;
    if (plan->n < 2 || (plan->graph && graphs != 1)) {
        plan->n = 0;
        return 0; /* exact already, or nothing in flight */
    }
    if (strstr(f->message, CC_ASYNC_TEXT_NOT_SHOWN) != NULL ||
        strstr(f->message, CC_ASYNC_TEXT_FORGOTTEN) != NULL) {
        plan->n = 0;
        snprintf(why, whylen, "more launches were in flight than the finding lists");
        return 0;
    }
    error_part(f->message, plan->error, sizeof plan->error);
    return 1;
}

int cc_rerun_launch_list(const cc_rerun_plan *plan, long pid, char *out, size_t outlen)
{
    int k = snprintf(out, outlen, "%ld/", pid);
    for (size_t i = 0; i < plan->n && k >= 0 && (size_t)k < outlen; i++) {
        k += snprintf(out + k, outlen - (size_t)k, "%s%" PRIu64 ":%016" PRIx64, i ? "," : "",
                      plan->launches[i].launch_id, plan->launches[i].kernel_hash);
    }
    return k < 0 || (size_t)k >= outlen ? -1 : 0;
}

int cc_rerun_verdict(const cc_rerun_plan *plan, const cc_rerun_outcome *o, char *why,
                     size_t whylen)
{
    switch (o->end) {
    case CC_RERUN_TIMED_OUT:
        snprintf(why, whylen, "the second run did not end within %.0f s (twice the first run's "
                              "time and 10 s) and was stopped", o->limit_s);
        return -1;
    case CC_RERUN_INTERRUPTED:
        snprintf(why, whylen, "the second run was interrupted");
        return -1;
    case CC_RERUN_NOT_STARTED:
        snprintf(why, whylen, "the second run could not be started");
        return -1;
    case CC_RERUN_ENDED:
        break;
    }
    if (!o->reported) {
        snprintf(why, whylen, "the second run wrote no report");
        return -1;
    }
    if (o->error == NULL) {
        snprintf(why, whylen, "the second run ended without an asynchronous error (the program "
                              "does not fail the same way every time)");
        return -1;
    }
    char error[256];
    error_part(o->error->message, error, sizeof error);
    if (strcmp(error, plan->error) != 0) {
        snprintf(why, whylen, "the second run failed differently (%s)", error);
        return -1;
    }
    const cc_related *named = NULL;
    size_t faulting = 0, graph = 0, left = 0;
    for (uint32_t i = 0; i < o->error->nrelated; i++) {
        const cc_related *r = &o->error->related[i];
        if (role_is(r, ROLE_FAULTING)) {
            faulting++;
            named = r;
        } else if (role_is(r, ROLE_GRAPH)) {
            graph++;
        } else if (role_is(r, ROLE_CANDIDATE) || role_is(r, ROLE_NODE)) {
            left++;
        }
    }
    /* Exact: one launch (or one node, beside its graph launch), no candidate left. A graph
     * launch named with its nodes still listed is not. */
    if (faulting != 1 || left > 0 || graph != (size_t)plan->graph || !named->has_device ||
        (named->device.kernel != NULL && strcmp(named->device.kernel, "(graph)") == 0)) {
        snprintf(why, whylen, "the second run's progress marks left %zu launches that may have "
                              "faulted", left + faulting);
        return -1;
    }
    const char *kernel = binary_name(&named->device);
    for (size_t i = 0; i < plan->n; i++) {
        if (plan->launches[i].launch_id == named->device.launch_id && kernel != NULL &&
            strcmp(plan->launches[i].kernel, kernel) == 0) {
            return (int)i;
        }
    }
    snprintf(why, whylen, "the second run named launch #%" PRIu64 " of %s, which is not one of "
                          "the candidates (the program's launches differ between runs)",
             named->device.launch_id,
             named->device.kernel != NULL ? named->device.kernel : "?");
    return -1;
}
