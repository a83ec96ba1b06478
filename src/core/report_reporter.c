/* The live reporter (cc_reporter_*): suppresses, folds duplicates by their dedup key (keeping a
 * count and the first CC_MAX_SAMPLES distinct (block, thread) samples), and writes every new
 * finding at once: a JSON line to the report file (created new with mode 0600, or an own file
 * appended to, never through a link: core/owned_file.h; flushed per record) and text to text_out
 * up to the print limit. A finding that names no test gets the one the configured environment
 * variable names at that moment (read per finding, never per event). The header names the run
 * the section belongs to and the process's rank when it has one. Closing writes an update line
 * per folded finding, a summary line, and the text error summary. One mutex guards everything. */
#include "core/report.h"
#include "core/report_internal.h"
#include "core/finding_util.h"
#include "core/grow.h"
#include "core/hashmap.h"
#include "core/json.h"
#include "core/owned_file.h"
#include "core/suppress.h"
#include "core/text_escape.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct entry {
    char *key;
    uint64_t hash;
    cc_finding *f;          /* owned clone, count as first written */
    uint64_t id;            /* id of its finding line */
    uint64_t count;         /* occurrences so far */
    uint32_t nsamples;
    uint32_t sblock[CC_MAX_SAMPLES][3], sthread[CC_MAX_SAMPLES][3];
    int printed;            /* written as text */
} entry;

struct cc_reporter {
    pthread_mutex_t lock;
    FILE *jsonl;
    FILE *text;
    uint64_t print_limit, printed;
    int limit_noted;
    char *tool;
    char *test_env;         /* variable naming the running test; NULL: none */
    cc_suppressions *supp;
    entry **entries;
    size_t n, cap;
    cc_hashmap by_key; /* cc_hash_str of a dedup key -> index into entries (keys compared) */
    uint64_t total, suppressed, next_id;
    uint64_t distinct_sev[3], total_sev[3];
};

static void set_err(char *err, size_t errlen, const char *fmt, const char *a, const char *b) {
    if (err && errlen) snprintf(err, errlen, fmt, a, b);
}

/* The header's rank keys: those the process knows. */
static void write_rank(FILE *out, const cc_rank_info *rk) {
    if (!rk) return;
    if (rk->rank >= 0) fprintf(out, ",\"rank\":%d", rk->rank);
    if (rk->local_rank >= 0) fprintf(out, ",\"local_rank\":%d", rk->local_rank);
    if (rk->world_size >= 1) fprintf(out, ",\"world_size\":%d", rk->world_size);
}

cc_reporter *cc_reporter_open(const cc_report_config *cfg, char *err, size_t errlen) {
    cc_reporter *r = calloc(1, sizeof *r);
    if (!r) {
        set_err(err, errlen, "%s%s", "out of memory", "");
        return NULL;
    }
    pthread_mutex_init(&r->lock, NULL);
    r->text = cfg->text_out;
    r->print_limit = cfg->print_limit;
    r->tool = strdup(cfg->tool ? cfg->tool : "");
    r->next_id = 1;
    if (!r->tool) {
        set_err(err, errlen, "%s%s", "out of memory", "");
        goto fail;
    }
    if (cfg->suppressions_path) {
        r->supp = cc_suppressions_load(cfg->suppressions_path, err, errlen);
        if (!r->supp) goto fail;
    }
    if (cfg->jsonl_path) {
        char why[256] = "";
        int fd = cc_owned_file_open(cfg->jsonl_path, CC_OWNED_APPEND, why, sizeof why);
        if (fd >= 0 && !(r->jsonl = fdopen(fd, "a"))) snprintf(why, sizeof why, "%s", strerror(errno));
        if (!r->jsonl) {
            set_err(err, errlen, "report file '%s': %s", cfg->jsonl_path, why);
            if (fd >= 0) close(fd);
            goto fail;
        }
        fprintf(r->jsonl, "{\"type\":\"header\",\"format\":\"%s\",\"format_version\":%d,\"tool\":",
                CC_REPORT_FORMAT, CC_REPORT_FORMAT_VERSION);
        cc_json_write_str(r->jsonl, r->tool);
        if (cfg->run_id && cfg->run_id[0]) {
            fputs(",\"run\":", r->jsonl);
            cc_json_write_str(r->jsonl, cfg->run_id);
        }
        fprintf(r->jsonl, ",\"pid\":%ld", (long)getpid());
        write_rank(r->jsonl, cfg->rank);
        fputs(",\"version\":", r->jsonl);
        cc_json_write_str(r->jsonl, CUCHECK_VERSION);
        fputs("}\n", r->jsonl);
        fflush(r->jsonl);
    }
    return r;
fail:
    cc_suppressions_free(r->supp);
    free(r->tool);
    pthread_mutex_destroy(&r->lock);
    free(r);
    return NULL;
}

/* ---- dedup table ---- */

static entry *lookup(cc_reporter *r, const char *key, uint64_t h) {
    size_t cursor = 0;
    for (uint64_t *i; (i = cc_hashmap_find_next(&r->by_key, h, &cursor)) != NULL;) {
        entry *e = r->entries[*i];
        if (strcmp(e->key, key) == 0) return e;
    }
    return NULL;
}

static int insert(cc_reporter *r, entry *e) {
    if (CC_ARRAY_RESERVE(r->entries, r->cap, r->n + 1) != 0 ||
        cc_hashmap_add(&r->by_key, e->hash, r->n) != 0)
        return -1;
    r->entries[r->n++] = e;
    return 0;
}

static void add_sample(entry *e, const cc_finding *f) {
    if (!f->has_device || !(f->device.valid & CC_DLOC_THREAD) || e->nsamples >= CC_MAX_SAMPLES)
        return;
    for (uint32_t i = 0; i < e->nsamples; i++)
        if (!memcmp(e->sblock[i], f->device.block, sizeof e->sblock[i]) &&
            !memcmp(e->sthread[i], f->device.thread, sizeof e->sthread[i]))
            return;
    memcpy(e->sblock[e->nsamples], f->device.block, sizeof e->sblock[0]);
    memcpy(e->sthread[e->nsamples], f->device.thread, sizeof e->sthread[0]);
    e->nsamples++;
}

/* ---- text output (lock held) ---- */

static void print_new(cc_reporter *r, entry *e, const cc_finding *f) {
    if (!r->text) return;
    if (r->print_limit && r->printed >= r->print_limit) {
        if (!r->limit_noted) {
            fprintf(r->text, "%s further findings not printed (print limit %" PRIu64 ")\n",
                    CC_TEXT_PREFIX, r->print_limit);
            r->limit_noted = 1;
            fflush(r->text);
        }
        return;
    }
    cc_write_finding_text(r->text, f);
    fflush(r->text);
    r->printed++;
    if (e) e->printed = 1;
}

static uint32_t sev_index(uint32_t sev) { return sev <= CC_SEV_ERROR ? sev : CC_SEV_ERROR; }

int cc_reporter_set_test_env(cc_reporter *r, const char *name) {
    char *copy = name ? strdup(name) : NULL;
    if (name && !copy) return -1;
    pthread_mutex_lock(&r->lock);
    free(r->test_env);
    r->test_env = copy;
    pthread_mutex_unlock(&r->lock);
    return 0;
}

/* The running test, copied at once (the variable may be set again by another thread); NULL when
 * the finding names its own, or no test is running. */
static char *running_test(const cc_reporter *r, const cc_finding *f) {
    if (f->test || !r->test_env) return NULL;
    const char *t = getenv(r->test_env);
    return t && t[0] ? strdup(t) : NULL;
}

static int add_finding(cc_reporter *r, const cc_finding *f);

int cc_reporter_add(cc_reporter *r, const cc_finding *f) {
    if (!r || !f) return 0;
    char *test = running_test(r, f);
    if (!test) return add_finding(r, f);
    cc_finding with_test = *f;
    with_test.test = test;
    int added = add_finding(r, &with_test);
    free(test);
    return added;
}

static int add_finding(cc_reporter *r, const cc_finding *f) {
    uint64_t cnt = f->count ? f->count : 1;
    if (cc_suppressions_match(r->supp, f)) {
        pthread_mutex_lock(&r->lock);
        r->suppressed += cnt;
        pthread_mutex_unlock(&r->lock);
        return 0;
    }
    char *key = cc_finding_dedup_key(f);
    uint64_t h = key ? cc_hash_str(key) : 0;
    pthread_mutex_lock(&r->lock);
    uint32_t si = sev_index(f->severity);
    r->total += cnt;
    r->total_sev[si] += cnt;
    entry *e = key ? lookup(r, key, h) : NULL;
    if (e) {
        e->count += cnt;
        add_sample(e, f);
        r->total_sev[si] -= cnt; /* counted under the severity of the first occurrence */
        r->total_sev[sev_index(e->f->severity)] += cnt;
        pthread_mutex_unlock(&r->lock);
        free(key);
        return 0;
    }
    /* New finding. Without memory for an entry it is still written, just not folded. */
    cc_finding tmp = *f;
    tmp.count = cnt;
    e = key ? calloc(1, sizeof *e) : NULL;
    if (e) {
        e->f = cc_finding_clone(&tmp, NULL, 0);
        e->key = key;
        e->hash = h;
        e->count = cnt;
        if (!e->f || insert(r, e) != 0) {
            free(e->f);
            free(e);
            e = NULL;
        }
    }
    if (!e) free(key);
    uint64_t id = r->next_id++;
    if (e) {
        e->id = id;
        add_sample(e, f);
    }
    r->distinct_sev[si]++;
    if (r->jsonl) {
        cc_write_finding_jsonl_id(r->jsonl, &tmp, id);
        fflush(r->jsonl);
    }
    print_new(r, e, &tmp);
    pthread_mutex_unlock(&r->lock);
    return 1;
}

void cc_reporter_note(cc_reporter *r, const char *text) {
    if (!r || !text) return;
    pthread_mutex_lock(&r->lock);
    if (r->jsonl) {
        fputs("{\"type\":\"note\",\"tool\":", r->jsonl);
        cc_json_write_str(r->jsonl, r->tool);
        fputs(",\"text\":", r->jsonl);
        cc_json_write_str(r->jsonl, text);
        fputs("}\n", r->jsonl);
        fflush(r->jsonl);
    }
    if (r->text) {
        fprintf(r->text, "%s ", CC_TEXT_PREFIX);
        cc_text_fputs(text, r->text); /* notes may name kernels: escaped (core/text_escape.h) */
        fputc('\n', r->text);
        fflush(r->text);
    }
    pthread_mutex_unlock(&r->lock);
}

#define LOCKED_READ(r, expr)                                                 \
    do {                                                                     \
        if (!(r)) return 0;                                                  \
        pthread_mutex_lock((pthread_mutex_t *)&(r)->lock);                   \
        uint64_t v_ = (expr);                                                \
        pthread_mutex_unlock((pthread_mutex_t *)&(r)->lock);                 \
        return v_;                                                           \
    } while (0)

uint64_t cc_reporter_distinct(const cc_reporter *r) {
    LOCKED_READ(r, r->distinct_sev[0] + r->distinct_sev[1] + r->distinct_sev[2]);
}
uint64_t cc_reporter_total(const cc_reporter *r) { LOCKED_READ(r, r->total); }
uint64_t cc_reporter_suppressed(const cc_reporter *r) { LOCKED_READ(r, r->suppressed); }
uint64_t cc_reporter_errors(const cc_reporter *r) { LOCKED_READ(r, r->distinct_sev[CC_SEV_ERROR]); }

/* Safe from a fatal-signal handler in the sense that it never blocks: if another holder has the
 * lock (possibly the interrupted thread itself) it skips, since every record is flushed as it is
 * written anyway. */
void cc_reporter_flush(cc_reporter *r) {
    if (!r) return;
    if (pthread_mutex_trylock(&r->lock) != 0) return;
    if (r->jsonl) fflush(r->jsonl);
    if (r->text) fflush(r->text);
    pthread_mutex_unlock(&r->lock);
}

/* ---- close ---- */

static void write_update(FILE *out, const entry *e) {
    fprintf(out, "{\"type\":\"update\",\"id\":%" PRIu64 ",\"count\":%" PRIu64, e->id, e->count);
    if (e->nsamples) {
        fputs(",\"samples\":[", out);
        for (uint32_t i = 0; i < e->nsamples; i++) {
            fprintf(out, "%s{\"block\":", i ? "," : "");
            cc_json_write_dim3(out, e->sblock[i]);
            fputs(",\"thread\":", out);
            cc_json_write_dim3(out, e->sthread[i]);
            fputc('}', out);
        }
        fputc(']', out);
    }
    fputs("}\n", out);
}

static void write_repeated_text(FILE *out, const entry *e) {
    char title[512], where[512];
    cc_finding_title(e->f, title, sizeof title);
    where[0] = '\0';
    if (e->f->has_device) cc_device_where(&e->f->device, where, sizeof where);
    fprintf(out, "%s     %" PRIu64 "x ", CC_TEXT_PREFIX, e->count);
    cc_text_fputs(title, out); /* where is escaped already (report_internal.h) */
    fprintf(out, "%s%s [", where[0] ? " at " : "", where);
    cc_text_fputs(e->f->kind ? e->f->kind : "?", out);
    fputs("]\n", out);
    if (e->nsamples > 1 || (e->nsamples == 1 && e->count > 1)) {
        fprintf(out, "%s         threads", CC_TEXT_PREFIX);
        for (uint32_t i = 0; i < e->nsamples; i++)
            fprintf(out, "%s (%" PRIu32 ",%" PRIu32 ",%" PRIu32 ") in block (%" PRIu32 ",%" PRIu32
                         ",%" PRIu32 ")",
                    i ? "," : "", e->sthread[i][0], e->sthread[i][1], e->sthread[i][2],
                    e->sblock[i][0], e->sblock[i][1], e->sblock[i][2]);
        fprintf(out, "%s\n", e->count > e->nsamples ? ", ..." : "");
    }
}

static void write_count(FILE *out, uint64_t distinct, uint64_t total, const char *one,
                        const char *many) {
    fprintf(out, "%" PRIu64 " %s", distinct, distinct == 1 ? one : many);
    if (total != distinct) fprintf(out, " (%" PRIu64 " occurrences)", total);
}

void cc_reporter_close(cc_reporter *r) {
    if (!r) return;
    pthread_mutex_lock(&r->lock);
    uint64_t distinct = r->distinct_sev[0] + r->distinct_sev[1] + r->distinct_sev[2];
    if (r->jsonl) {
        for (size_t i = 0; i < r->n; i++)
            if (r->entries[i]->count != r->entries[i]->f->count) write_update(r->jsonl, r->entries[i]);
        fputs("{\"type\":\"summary\",\"tool\":", r->jsonl);
        cc_json_write_str(r->jsonl, r->tool);
        fprintf(r->jsonl,
                ",\"distinct\":%" PRIu64 ",\"total\":%" PRIu64 ",\"suppressed\":%" PRIu64
                ",\"errors\":%" PRIu64 ",\"warnings\":%" PRIu64 ",\"infos\":%" PRIu64 "}\n",
                distinct, r->total, r->suppressed, r->distinct_sev[CC_SEV_ERROR],
                r->distinct_sev[CC_SEV_WARNING], r->distinct_sev[CC_SEV_INFO]);
        fclose(r->jsonl);
        r->jsonl = NULL;
    }
    if (r->text) {
        FILE *out = r->text;
        int header = 0;
        for (size_t i = 0; i < r->n; i++) {
            const entry *e = r->entries[i];
            if (!e->printed || e->count <= 1) continue;
            if (!header) fprintf(out, "%s Repeated findings:\n", CC_TEXT_PREFIX);
            header = 1;
            write_repeated_text(out, e);
        }
        if (r->print_limit && r->printed < distinct)
            fprintf(out, "%s %" PRIu64 " of %" PRIu64 " findings printed (print limit %" PRIu64 ")\n",
                    CC_TEXT_PREFIX, r->printed, distinct, r->print_limit);
        fprintf(out, "%s ERROR SUMMARY: ", CC_TEXT_PREFIX);
        write_count(out, r->distinct_sev[CC_SEV_ERROR], r->total_sev[CC_SEV_ERROR], "error", "errors");
        if (r->distinct_sev[CC_SEV_WARNING]) {
            fputs(", ", out);
            write_count(out, r->distinct_sev[CC_SEV_WARNING], r->total_sev[CC_SEV_WARNING],
                        "warning", "warnings");
        }
        if (r->distinct_sev[CC_SEV_INFO]) {
            fputs(", ", out);
            write_count(out, r->distinct_sev[CC_SEV_INFO], r->total_sev[CC_SEV_INFO], "note",
                        "notes");
        }
        if (r->suppressed) fprintf(out, ", %" PRIu64 " suppressed", r->suppressed);
        fputc('\n', out);
        fflush(out);
    }
    for (size_t i = 0; i < r->n; i++) {
        free(r->entries[i]->key);
        free(r->entries[i]->f);
        free(r->entries[i]);
    }
    free(r->entries);
    cc_hashmap_free(&r->by_key);
    cc_suppressions_free(r->supp);
    free(r->tool);
    free(r->test_env);
    pthread_mutex_unlock(&r->lock);
    pthread_mutex_destroy(&r->lock);
    free(r);
}
