/* `cucheck profile --trace FILE` over a program of several processes (torchrun, mpirun, a
 * launcher script): each process writes its own timeline when it exits, so a plain FILE (no %p,
 * %q{VAR} or %r) would be written by each in turn and keep only the last. The CLI hands the
 * agent a per-process pattern beside FILE instead ("FILE.RUNID.%r%p.part") and at the end merges
 * the parts into FILE with the profile's merge (one timeline, a track per rank and GPU), then
 * removes them; a single part is copied as it is. With a per-process pattern the user asked for
 * separate files: they stay, and --merge-trace OUT also merges this run's files into OUT.
 * docs/profile.md, "Several processes". */
#ifndef CUCHECK_CLI_TRACE_PARTS_H
#define CUCHECK_CLI_TRACE_PARTS_H

#include <stddef.h>
#include <time.h>
#include "core/options.h"

typedef enum cc_trace_merge {
    CC_TRACE_MERGE_NONE = 0,
    CC_TRACE_MERGE_PARTS = 1,    /* a plain --trace FILE: parts merged into FILE, then removed */
    CC_TRACE_MERGE_EXPLICIT = 2, /* --merge-trace OUT: the pattern's files of this run, kept */
} cc_trace_merge;

typedef struct cc_trace_parts {
    int mode;                /* cc_trace_merge */
    char final[4096];        /* the merged trace */
    int final_gz;            /* written gzip'ed */
    char glob[8192];         /* the files to merge (with and without a trailing .gz) */
    struct timespec start;   /* explicit: only files written since the run started */
} cc_trace_parts;

/* Before the program starts, for the tool `tool` with its checked options: a plain --trace FILE
 * of profile is replaced in opts by the parts' pattern. 0, or -1 with a message in err. */
int cc_trace_parts_prepare(cc_trace_parts *t, const char *tool, cc_options *opts,
                           const char *run_id, char *err, size_t errlen);
/* After the program ended: merge (say so on stderr unless quiet; failures always). Parts are
 * kept when keep_parts (--keep-reports) or when the merge failed. 0, or -1 when it failed. */
int cc_trace_parts_finish(const cc_trace_parts *t, int keep_parts, int quiet);

#endif
