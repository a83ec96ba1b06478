/* The reporter: takes findings from tools, drops suppressed ones, folds duplicates into one
 * finding with a count, and writes each new finding at once (JSON Lines to the per-process
 * report file, flushed per finding, and readable text to a stream), so that a crash loses none.
 * Also: the text / JSON Lines / SARIF writers and per-process report file naming. */
#ifndef CUCHECK_CORE_REPORT_H
#define CUCHECK_CORE_REPORT_H

#include <stdio.h>
#include <stdint.h>
#include <stddef.h>
#include "cucheck/finding.h"
#include "core/rank_env.h"

typedef struct cc_report_config {
    const char *jsonl_path;        /* per-process report file (JSON Lines); NULL: none */
    FILE *text_out;                /* live text output; NULL: none */
    uint64_t print_limit;          /* most distinct findings written as text; 0: no limit */
    const char *suppressions_path; /* suppressions file; NULL: none */
    const char *tool;              /* tool name written into the report header */
    const char *run_id;            /* the run this process belongs to, in the header; NULL: none */
    const cc_rank_info *rank;      /* the process's rank, local rank, world size (those >= 0 go
                                    * into the header); NULL: none */
} cc_report_config;

typedef struct cc_reporter cc_reporter;

cc_reporter *cc_reporter_open(const cc_report_config *cfg, char *err, size_t errlen);
/* Returns 1 if the finding is new, 0 if folded into an earlier one or suppressed (the same bug
 * in two tests is two findings). Thread-safe. */
int cc_reporter_add(cc_reporter *r, const cc_finding *f);
uint64_t cc_reporter_distinct(const cc_reporter *r);   /* distinct findings, unsuppressed */
uint64_t cc_reporter_total(const cc_reporter *r);      /* occurrences, unsuppressed */
uint64_t cc_reporter_suppressed(const cc_reporter *r); /* occurrences suppressed */
uint64_t cc_reporter_errors(const cc_reporter *r);     /* distinct unsuppressed, severity error */
/* A statement of what was checked, from a tool: written to the report file at once as
 * {"type":"note","tool":...,"text":...} and to text_out as "========= <text>". Thread-safe. */
void cc_reporter_note(cc_reporter *r, const char *text);
/* Names the environment variable that names the test that is running (the agent:
 * CC_ENV_CURRENT_TEST): from then on a finding that names no test of its own gets the variable's
 * value when it comes in (an unset or empty value: none). NULL: never read (the default).
 * 0, or -1 without memory. Call before findings come in from other threads. */
int cc_reporter_set_test_env(cc_reporter *r, const char *name);
/* Write final counts and the summary, flush and free. */
void cc_reporter_close(cc_reporter *r);
/* Flush what is buffered (safe to call from a fatal-signal path of the agent). */
void cc_reporter_flush(cc_reporter *r);

/* ---- writers over a finished set of findings ---- */
void cc_write_finding_text(FILE *out, const cc_finding *f);
void cc_write_finding_jsonl(FILE *out, const cc_finding *f); /* one line, '\n'-terminated */
/* The same with `more` (further members, each after a comma: ,"ranks":[0,1]) before the closing
 * brace; more NULL: none. */
void cc_write_finding_jsonl_more(FILE *out, const cc_finding *f, const char *more);
/* SARIF 2.1.0: one log with one run for `tool`. */
void cc_write_sarif(FILE *out, const char *tool, const cc_finding *const *findings, size_t n);
/* The same with more[i] (further members, each after a comma) in result i's properties; more or
 * more[i] NULL: none. */
void cc_write_sarif_more(FILE *out, const char *tool, const cc_finding *const *findings,
                         const char *const *more, size_t n);

/* ---- reading report files back (what the CLI collects from each process) ---- */
typedef struct cc_finding_set cc_finding_set;  /* owns copies of findings */
cc_finding_set *cc_finding_set_new(void);
/* Parse a JSON Lines report file and add its findings (counts applied). A file is a sequence of
 * sections, each opened by a header; with a run_id only the sections whose header names that
 * run are read (records before any header belong to no run), without one every section is.
 * Returns 0; 1 when damaged lines (not JSON, a malformed record, an update of an unknown
 * finding) were skipped: a damaged line hides nothing after it, every record that reads is
 * kept, and err holds the first one ("PATH:LINE: what", then "(and N more damaged lines)");
 * damage inside another run's section is not reported. A last line cut short (the writer died
 * mid-line) is ignored with a warning in err and 0. -1 with err ("PATH: why") when the file
 * cannot be read (a symbolic link is not followed). *sections (may be NULL) receives the number
 * of sections read. */
int cc_finding_set_load_report(cc_finding_set *s, const char *path, const char *run_id,
                               size_t *sections, char *err, size_t errlen);
/* cc_finding_set_load_report of every section. */
int cc_finding_set_load_jsonl(cc_finding_set *s, const char *path, char *err, size_t errlen);
size_t cc_finding_set_size(const cc_finding_set *s);
const cc_finding *cc_finding_set_get(const cc_finding_set *s, size_t i);
/* The process a section of a report came from, as its header says. */
typedef struct cc_report_origin {
    uint64_t pid;   /* 0: unknown */
    int rank;       /* -1: unknown (an older report, or a process without a launcher's rank) */
    int local_rank; /* -1: unknown */
    int world_size; /* -1: unknown */
} cc_report_origin;
/* The sections read (one per header of the run read, in reading order). */
size_t cc_finding_set_section_count(const cc_finding_set *s);
const cc_report_origin *cc_finding_set_section(const cc_finding_set *s, size_t i);
/* The index of the section finding i came from, or SIZE_MAX (read before any header). */
size_t cc_finding_set_section_of(const cc_finding_set *s, size_t i);
/* Notes read from report files, in file order. */
size_t cc_finding_set_note_count(const cc_finding_set *s);
const char *cc_finding_set_note(const cc_finding_set *s, size_t i);
void cc_finding_set_free(cc_finding_set *s);

/* ---- per-process report names ---- */
/* Expand %p (pid), %q{VAR} (environment variable, empty if unset), %r ("rank<R>." when the
 * launcher names the process's rank, core/rank_env.h; empty otherwise) and %% in pattern.
 * Returns 0, or -1 if the result does not fit or a %q{ is unterminated. */
int cc_expand_report_name(const char *pattern, int pid, char *out, size_t outlen);

#endif
