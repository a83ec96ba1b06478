/* streamcheck's coverage counters (sc_coverage.h): a kernel table keyed by function id, and a
 * direct-mapped window of recent launches (access events arrive shortly after their launch:
 * learned and inferred ones right after it, instrumented ones when it completed) mapping a
 * launch id to its kernel, whether it was a graph kernel node, and the sources its access
 * events had so far. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tools/streamcheck/sc_coverage.h"
#include "core/number_text.h"

#define SC_COV_KERNELS 8192
#define SC_COV_WINDOW 65536 /* recent launches remembered (by launch id) */
#define SC_COV_NAMED 5      /* fallen-back kernels named in the note */

typedef struct sc_cov_kernel {
    uint64_t function;         /* 0 = empty slot */
    char *name;
    uint64_t launches, instrumented, learned, inferred, graph_nodes;
} sc_cov_kernel;

typedef struct sc_cov_launch {
    uint64_t launch_id;        /* 0 = empty */
    uint32_t kernel;           /* index + 1 into kernels; 0 = not counted */
    uint16_t sources;          /* bit per cc_access_source seen */
    uint8_t instrumented;
    uint8_t graph;             /* a graph kernel node */
} sc_cov_launch;

struct sc_cov {
    sc_cov_kernel kernels[SC_COV_KERNELS];
    sc_cov_launch window[SC_COV_WINDOW];
    uint64_t launches, instrumented, learned, inferred, graph_nodes, untracked;
    uint64_t graph_inferred;   /* graph kernel nodes that got an inferred access set */
    uint64_t with_set;         /* launches not instrumented that got access events */
    uint64_t kernels_overflow;
};

sc_cov *sc_cov_new(void)
{
    return calloc(1, sizeof(sc_cov));
}

void sc_cov_free(sc_cov *c)
{
    if (c == NULL) {
        return;
    }
    for (size_t i = 0; i < SC_COV_KERNELS; i++) {
        free(c->kernels[i].name);
    }
    free(c);
}

static uint32_t kernel_index(sc_cov *c, uint64_t function, const char *name)
{
    uint64_t key = function != 0 ? function : 1;
    size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 40) % SC_COV_KERNELS;
    for (size_t i = 0; i < SC_COV_KERNELS; i++) {
        size_t at = (h + i) % SC_COV_KERNELS;
        sc_cov_kernel *k = &c->kernels[at];
        if (k->function == key) {
            return (uint32_t)at + 1;
        }
        if (k->function == 0) {
            k->function = key;
            k->name = strdup(name != NULL && name[0] != '\0' ? name : "?");
            return (uint32_t)at + 1;
        }
    }
    c->kernels_overflow++;
    return 0;
}

static void on_launch(sc_cov *c, const cc_ev_launch *l)
{
    c->launches++;
    uint32_t ki = kernel_index(c, l->function, l->name);
    sc_cov_kernel *k = ki != 0 ? &c->kernels[ki - 1] : NULL;
    int graph = (l->flags & CC_LAUNCH_FLAG_GRAPH_NODE) != 0;
    int instr = (l->flags & CC_LAUNCH_FLAG_INSTRUMENTED) != 0;
    c->graph_nodes += graph;
    c->instrumented += instr;
    if (k != NULL) {
        k->launches++;
        k->graph_nodes += graph;
        k->instrumented += instr;
    }
    sc_cov_launch *w = &c->window[l->launch_id % SC_COV_WINDOW];
    w->launch_id = l->launch_id;
    w->kernel = ki;
    w->sources = 0;
    w->instrumented = (uint8_t)instr;
    w->graph = (uint8_t)graph;
}

static void on_access(sc_cov *c, const cc_ev_access *a)
{
    if (a->launch_id == 0 || a->source > CC_ACCESS_SRC_INFERRED) {
        return; /* a host access */
    }
    sc_cov_launch *w = &c->window[a->launch_id % SC_COV_WINDOW];
    if (w->launch_id != a->launch_id) {
        c->untracked++;
        return;
    }
    uint32_t bit = 1u << a->source;
    if (w->sources & bit) {
        return;
    }
    if (w->sources == 0 && !w->instrumented) {
        c->with_set++;
    }
    w->sources |= bit;
    sc_cov_kernel *k = w->kernel != 0 ? &c->kernels[w->kernel - 1] : NULL;
    if (a->source == CC_ACCESS_SRC_LEARNED) {
        c->learned++;
        if (k != NULL) {
            k->learned++;
        }
    } else if (a->source == CC_ACCESS_SRC_INFERRED) {
        c->inferred++;
        c->graph_inferred += w->graph;
        if (k != NULL) {
            k->inferred++;
        }
    }
}

void sc_cov_event(sc_cov *c, const cc_event *ev)
{
    if (c == NULL) {
        return;
    }
    if (ev->h.kind == CC_EV_LAUNCH) {
        on_launch(c, &ev->u.launch);
    } else if (ev->h.kind == CC_EV_ACCESS) {
        on_access(c, &ev->u.access);
    }
}

void sc_cov_note(const sc_cov *c, cc_demangle_cache *names, char *out, size_t n, char *out2,
                 size_t n2)
{
    uint64_t nk = 0, kl = 0, ki = 0, kf = 0, knone = 0, fell = 0;
    size_t o2 = 0;
    out2[0] = '\0';
    for (size_t i = 0; i < SC_COV_KERNELS; i++) {
        const sc_cov_kernel *k = &c->kernels[i];
        if (k->function == 0) {
            continue;
        }
        nk++;
        kl += k->learned > 0;
        ki += k->instrumented > 0;
        kf += k->inferred > 0;
        knone += k->learned == 0 && k->instrumented == 0 && k->inferred == 0;
        if (k->instrumented > 0 && k->inferred > 0 && k->learned == 0) {
            if (fell < SC_COV_NAMED && o2 < n2) {
                int w = snprintf(out2 + o2, n2 - o2, "%s%s", fell ? ", " : "",
                                 cc_demangle_cached(names, k->name));
                o2 = w > 0 ? o2 + (size_t)w : o2;
            }
            fell++;
        }
    }
    char li[32], ln[32], ll[32], lf[32], lnone[32], lg[32], lgi[32], lgn[32];
    uint64_t without = c->launches >= c->with_set + c->instrumented
                           ? c->launches - c->with_set - c->instrumented : 0;
    /* (a launch whose learned set is empty, or whose events came after the window, counts as
     * without) */
    cc_grouped_digits(c->instrumented, li, sizeof li);
    cc_grouped_digits(c->launches, ln, sizeof ln);
    cc_grouped_digits(c->learned, ll, sizeof ll);
    cc_grouped_digits(c->inferred, lf, sizeof lf);
    cc_grouped_digits(without, lnone, sizeof lnone);
    cc_grouped_digits(c->graph_nodes, lg, sizeof lg);
    cc_grouped_digits(c->graph_inferred, lgi, sizeof lgi);
    cc_grouped_digits(c->graph_nodes >= c->graph_inferred ? c->graph_nodes - c->graph_inferred : 0, lgn,
            sizeof lgn);
    snprintf(out, n,
             "streamcheck access sets: kernels %" PRIu64 " (%" PRIu64 " learned, %" PRIu64
             " instrumented, %" PRIu64 " inferred, %" PRIu64 " without); launches instrumented "
             "%s/%s, learned %s, inferred %s, without access events %s (graph kernel nodes "
             "%s: %s with inferred access sets, %s without)",
             nk, kl, ki, kf, knone, li, ln, ll, lf, lnone, lg, lgi, lgn);
    if (fell > 0) {
        char names[1024];
        snprintf(names, sizeof names, "%s", out2);
        snprintf(out2, n2,
                 "streamcheck: %" PRIu64 " kernel(s) fell back to inferred access sets after "
                 "instrumented launches (they touch memory outside their pointer arguments' "
                 "allocations, e.g. through pointers loaded from memory or module globals, or "
                 "ran out of instrumentation budget): %s%s",
                 fell, names, fell > SC_COV_NAMED ? ", ..." : "");
    }
}
