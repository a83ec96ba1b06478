/* The ranks and processes a merged finding came from, as text and JSON (origin.h). */
#include "cli/origin.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"

typedef struct origin_lists {
    int *ranks;          /* of the sections with a rank */
    size_t nranks, capranks;
    uint64_t *pids;      /* of the sections without a rank (all sections: all_pids) */
    size_t npids, cappids;
} origin_lists;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Sorts and drops repeats; returns the new count. */
static size_t unique(void *arr, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
    if (n == 0) {
        return 0;
    }
    qsort(arr, n, size, cmp);
    char *a = arr;
    size_t k = 1;
    for (size_t i = 1; i < n; i++) {
        if (cmp(a + (k - 1) * size, a + i * size) != 0) {
            memmove(a + k * size, a + i * size, size);
            k++;
        }
    }
    return k;
}

/* Adds one section: its rank, or (without one, or always with all_pids) its pid. */
static int add_section(origin_lists *l, const cc_report_origin *o, int all_pids)
{
    if (!o) {
        return 0;
    }
    if (o->rank >= 0) {
        int *r = CC_ARRAY_PUSH(l->ranks, l->nranks, l->capranks);
        if (!r) {
            return -1;
        }
        *r = o->rank;
    }
    if (o->rank < 0 || all_pids) {
        uint64_t *p = CC_ARRAY_PUSH(l->pids, l->npids, l->cappids);
        if (!p) {
            return -1;
        }
        *p = o->pid;
    }
    return 0;
}

static void lists_done(origin_lists *l)
{
    l->nranks = unique(l->ranks, l->nranks, sizeof *l->ranks, cmp_int);
    l->npids = unique(l->pids, l->npids, sizeof *l->pids, cmp_u64);
}

static void lists_free(origin_lists *l)
{
    free(l->ranks);
    free(l->pids);
}

/* The lists of n sections: set's sections[0..n) (all of set's, sections NULL). */
static int of_sections(origin_lists *l, const cc_finding_set *set, const size_t *sections,
                       size_t n, int all_pids)
{
    memset(l, 0, sizeof *l);
    for (size_t k = 0; k < n; k++) {
        const cc_report_origin *o = cc_finding_set_section(set, sections ? sections[k] : k);
        if (add_section(l, o, all_pids) != 0) {
            lists_free(l);
            memset(l, 0, sizeof *l);
            return -1;
        }
    }
    lists_done(l);
    return 0;
}

static int of_finding(origin_lists *l, const cc_merged *m, size_t i, const cc_finding_set *set,
                      int all_pids)
{
    if (i >= m->nfrom) {
        memset(l, 0, sizeof *l);
        return 0;
    }
    return of_sections(l, set, m->from[i].sections, m->from[i].n, all_pids);
}

static int of_set(origin_lists *l, const cc_finding_set *set)
{
    return of_sections(l, set, NULL, cc_finding_set_section_count(set), 0);
}

/* Appends text to buf at *at; past the end the text is cut and "..." ends buf. */
static void put(char *buf, size_t len, size_t *at, const char *text)
{
    if (*at >= len) {
        return;
    }
    size_t n = strlen(text);
    if (*at + n < len) {
        memcpy(buf + *at, text, n + 1);
        *at += n;
        return;
    }
    *at = len;
    if (len >= 4) {
        strcpy(buf + len - 4, "...");
    }
}

/* "0-3,5,7,8": runs of three or more consecutive ranks as a range. */
static void put_ranks(char *buf, size_t len, size_t *at, const int *r, size_t n)
{
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j + 1 < n && r[j + 1] == r[j] + 1) {
            j++;
        }
        char item[48];
        if (j >= i + 2) {
            snprintf(item, sizeof item, "%s%d-%d", i ? "," : "", r[i], r[j]);
            i = j + 1;
        } else {
            snprintf(item, sizeof item, "%s%d", i ? "," : "", r[i]);
            i++;
        }
        put(buf, len, at, item);
    }
}

static void put_pids(char *buf, size_t len, size_t *at, const uint64_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char item[32];
        snprintf(item, sizeof item, "%s%" PRIu64, i ? "," : "", p[i]);
        put(buf, len, at, item);
    }
}

int cc_origin_shown(const cc_finding_set *set)
{
    origin_lists l;
    if (of_set(&l, set) != 0) {
        return 0;
    }
    int shown = l.nranks > 0 || l.npids > 1;
    lists_free(&l);
    return shown;
}

void cc_origin_text(const cc_merged *m, size_t i, const cc_finding_set *set, char *buf,
                    size_t len)
{
    if (len == 0) {
        return;
    }
    buf[0] = '\0';
    origin_lists l;
    if (of_finding(&l, m, i, set, 0) != 0) {
        return;
    }
    size_t at = 0;
    if (l.nranks) {
        put(buf, len, &at, l.nranks == 1 ? "rank " : "ranks ");
        put_ranks(buf, len, &at, l.ranks, l.nranks);
    }
    if (l.npids) {
        put(buf, len, &at, l.nranks ? "; " : "");
        put(buf, len, &at, l.npids == 1 ? "pid " : "pids ");
        put_pids(buf, len, &at, l.pids, l.npids);
    }
    lists_free(&l);
}

char *cc_origin_json(const cc_merged *m, size_t i, const cc_finding_set *set)
{
    origin_lists l;
    if (of_finding(&l, m, i, set, 1) != 0) {
        return NULL;
    }
    char *text = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&text, &size);
    if (!f) {
        lists_free(&l);
        return NULL;
    }
    if (l.nranks) {
        fputs(",\"ranks\":[", f);
        for (size_t k = 0; k < l.nranks; k++) {
            fprintf(f, "%s%d", k ? "," : "", l.ranks[k]);
        }
        fputc(']', f);
    }
    if (l.npids) {
        fputs(",\"pids\":[", f);
        for (size_t k = 0; k < l.npids; k++) {
            fprintf(f, "%s%" PRIu64, k ? "," : "", l.pids[k]);
        }
        fputc(']', f);
    }
    lists_free(&l);
    if (fclose(f) != 0) {
        free(text);
        return NULL;
    }
    return text;
}

void cc_origin_summary(const cc_finding_set *set, char *buf, size_t len)
{
    if (len == 0) {
        return;
    }
    buf[0] = '\0';
    origin_lists l;
    if (of_set(&l, set) != 0 || l.nranks == 0) {
        lists_free(&l);
        return;
    }
    size_t at = 0;
    put(buf, len, &at, l.nranks == 1 ? " (rank " : " (ranks ");
    put_ranks(buf, len, &at, l.ranks, l.nranks);
    if (l.npids) {
        char more[96];
        snprintf(more, sizeof more, " and %zu process%s without a rank", l.npids,
                 l.npids == 1 ? "" : "es");
        put(buf, len, &at, more);
    }
    put(buf, len, &at, ")");
    lists_free(&l);
}
