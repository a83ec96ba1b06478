/* Fuzz target for the report reader and its neighbours: the input is parsed as one JSON value,
 * loaded as a JSON Lines report file, and read as a suppressions file. Every finding that loads
 * is written back as text, JSON Lines and SARIF; the JSON Lines and SARIF output must parse
 * again, and the text must hold no byte that could drive a terminal (abort otherwise), so
 * writer bugs surface too. */
#include "core/json.h"
#include "core/report.h"
#include "core/suppress.h"
#include "core/text_escape.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char tmp_path[64];

static void must_parse(void (*write)(FILE *, const void *), const void *arg) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return;
    write(m, arg);
    fclose(m);
    char err[128];
    cc_json *v = cc_json_parse(buf, len, err, sizeof err);
    if (!v) {
        fprintf(stderr, "writer produced invalid JSON (%s):\n%s\n", err, buf);
        abort();
    }
    cc_json_free(v);
    free(buf);
}

/* The text of a finding: every line printable (core/text_escape.h), whatever the strings held. */
static void must_be_terminal_safe(const cc_finding *f) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return;
    cc_write_finding_text(m, f);
    fclose(m);
    for (char *line = buf; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl) *nl = '\0';
        if (!cc_text_is_safe(line)) {
            fprintf(stderr, "text writer let a control byte through: %s\n", line);
            abort();
        }
        line = nl ? nl + 1 : NULL;
    }
    free(buf);
}

static void write_jsonl(FILE *out, const void *f) { cc_write_finding_jsonl(out, f); }

typedef struct sarif_arg {
    const cc_finding *const *fs;
    size_t n;
} sarif_arg;

static void write_sarif(FILE *out, const void *p) {
    const sarif_arg *a = p;
    cc_write_sarif(out, "fuzz", a->fs, a->n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!tmp_path[0]) {
        snprintf(tmp_path, sizeof tmp_path, "/tmp/fuzz_jsonl_%ld.jsonl", (long)getpid());
    }
    cc_json_free(cc_json_parse((const char *)data, size, NULL, 0));

    FILE *f = fopen(tmp_path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    cc_finding_set *s = cc_finding_set_new();
    char err[256];
    cc_finding_set_load_jsonl(s, tmp_path, err, sizeof err);

    char *text = malloc(size + 1);
    cc_suppressions *supp = NULL;
    if (text) {
        memcpy(text, data, size);
        text[size] = '\0';
        supp = cc_suppressions_parse(text, "fuzz", err, sizeof err);
        free(text);
    }

    size_t n = cc_finding_set_size(s);
    const cc_finding **fs = calloc(n ? n : 1, sizeof *fs);
    for (size_t i = 0; i < n; i++) {
        const cc_finding *fi = cc_finding_set_get(s, i);
        if (fs) fs[i] = fi;
        must_be_terminal_safe(fi);
        must_parse(write_jsonl, fi);
        cc_suppressions_match(supp, fi);
    }
    if (fs) {
        sarif_arg a = {fs, n};
        must_parse(write_sarif, &a);
    }
    free(fs);
    cc_suppressions_free(supp);
    cc_finding_set_free(s);
    unlink(tmp_path);
    return 0;
}
