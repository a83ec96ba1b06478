/* `cucheck merge [-o FILE] [--gzip] TRACE...`: combine the per-rank timelines that
 * `cucheck profile --trace 'trace.%q{RANK}.json'` wrote (plain or gzip'ed) into one Chrome /
 * Perfetto trace on a common clock (src/tools/profile/profile_merge.c does the work). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cli/commands.h"
#include "tools/profile/profile.h"

static void merge_usage(FILE *out)
{
    fprintf(out,
            "usage: cucheck merge [-o FILE] [--gzip] TRACE...\n"
            "  Combine profile traces of several processes or ranks into one timeline on a\n"
            "  common (wall) clock, ordered by rank.\n"
            "  -o, --output FILE  write the merged trace to FILE (default: stdout)\n"
            "  --gzip             gzip the output (needs zlib, libz.so.1)\n");
}

int cc_cmd_merge(int argc, char **argv)
{
    const char *output = NULL;
    int gzip = 0;
    const char **inputs = calloc((size_t)(argc > 0 ? argc : 1), sizeof *inputs);
    size_t n = 0;
    if (!inputs) {
        fprintf(stderr, "cucheck merge: out of memory\n");
        return 1;
    }
    int only_files = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!only_files && strcmp(a, "--") == 0) {
            only_files = 1;
        } else if (!only_files && (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)) {
            merge_usage(stdout);
            free(inputs);
            return 0;
        } else if (!only_files && (strcmp(a, "-o") == 0 || strcmp(a, "--output") == 0)) {
            if (i + 1 >= argc) {
                fprintf(stderr, "cucheck merge: option '%s' needs a value\n", a);
                free(inputs);
                return 2;
            }
            output = argv[++i];
        } else if (!only_files && strncmp(a, "--output=", 9) == 0) {
            output = a + 9;
        } else if (!only_files && strcmp(a, "--gzip") == 0) {
            gzip = 1;
        } else if (!only_files && a[0] == '-' && a[1] != '\0') {
            fprintf(stderr, "cucheck merge: unknown option '%s'\n", a);
            merge_usage(stderr);
            free(inputs);
            return 2;
        } else {
            inputs[n++] = a;
        }
    }
    if (n == 0) {
        fprintf(stderr, "cucheck merge: no input traces\n");
        merge_usage(stderr);
        free(inputs);
        return 2;
    }
    char err[1024] = "";
    FILE *out = stdout;
    int gz_used = 0;
    if (output) {
        out = cc_prof_open_write(output, gzip, &gz_used, err, sizeof err);
        if (!out) {
            fprintf(stderr, "cucheck merge: %s\n", err);
            free(inputs);
            return 1;
        }
        if (gzip && !gz_used)
            fprintf(stderr, "cucheck merge: zlib (libz.so.1) is not available: %s is written "
                            "uncompressed\n", output);
    } else if (gzip) {
        fprintf(stderr, "cucheck merge: --gzip needs --output FILE\n");
        free(inputs);
        return 2;
    }
    int rc = cc_prof_merge_traces(inputs, n, out, err, sizeof err);
    int close_bad = output ? fclose(out) != 0 : fflush(out) != 0;
    free(inputs);
    if (rc != 0 || close_bad) {
        fprintf(stderr, "cucheck merge: %s\n", rc != 0 ? err : "write error");
        return 1;
    }
    if (output) fprintf(stderr, "cucheck merge: %zu trace(s) merged into %s\n", n, output);
    return 0;
}
