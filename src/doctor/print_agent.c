/* The agent part of doctor's output: the "Agent" section of the text (agent, Compute Sanitizer
 * library, CUPTI, the injection tests, other tools clients) and the "agent" object of --json. */
#include "core/json.h"
#include "doctor/doctor.h"

#include <stdio.h>
#include <string.h>

static void text_lib(FILE *out, const char *what, const cc_doc_lib *l, const char *missing)
{
    if (!l->path[0]) {
        fprintf(out, "  %-18s %s\n", what, missing);
        return;
    }
    fprintf(out, "  %-18s %s  version %s%s%s%s%s\n", what, l->path,
            l->ok && l->version[0] ? l->version : "?", l->wheel[0] ? ", wheel " : "", l->wheel,
            !l->ok && l->error[0] ? ", " : "", !l->ok ? l->error : "");
}

static void text_test(FILE *out, const cc_doc_injection *t)
{
    fprintf(out, "  test (%s):%*s", t->tool, (int)(11 - strlen(t->tool)), "");
    if (!t->ran) {
        fprintf(out, "not run: %s\n", t->error[0] ? t->error : "no agent");
        return;
    }
    fprintf(out, "agent %s, %d process report(s)", t->agent_loaded ? "loaded" : "not loaded",
            t->reports);
    if (t->contexts >= 0)
        fprintf(out, ", %d context(s) seen", t->contexts);
    fprintf(out, ", driver %s\n", t->driver_used ? "used" : t->no_driver ? "missing" : "not used");
    if (t->message[0])
        fprintf(out, "  %-18s %s\n", "", t->message);
}

void cc_doc_print_agent_text(FILE *out, const cc_doc_report *r)
{
    const cc_doc_agent *a = &r->agent;
    fprintf(out, "\nAgent\n");
    if (!a->checked) {
        fprintf(out, "  not checked (--no-agent)\n");
        return;
    }
    if (a->path[0])
        fprintf(out, "  %-18s %s\n", "libcucheck_agent", a->path);
    else
        fprintf(out, "  %-18s not found: %s\n", "libcucheck_agent", a->locate_error);
    if (a->path[0]) {
        text_lib(out, "Compute Sanitizer", &a->sanitizer, "not loaded by the test");
        text_lib(out, "CUPTI", &a->cupti, "not loaded by the test");
        for (int i = 0; i < 2; i++)
            text_test(out, &a->inject[i]);
    }
    if (a->nclients == 0)
        fprintf(out, "  %-18s none named by CUDA_INJECTION64_PATH, NVTX_INJECTION64_PATH or "
                     "LD_PRELOAD\n", "other tools");
    for (int i = 0; i < a->nclients; i++)
        fprintf(out, "  %-18s %s=%s (%s)\n", i ? "" : "other tools", a->clients[i].variable,
                a->clients[i].value, a->clients[i].tool);
}

static void jkey(FILE *o, const char *k, int first)
{
    if (!first)
        fputc(',', o);
    cc_json_write_str(o, k);
    fputc(':', o);
}

static void jstr(FILE *o, const char *k, const char *v, int first)
{
    jkey(o, k, first);
    cc_json_write_str(o, v && v[0] ? v : NULL);
}

static void jint(FILE *o, const char *k, long long v)
{
    jkey(o, k, 0);
    fprintf(o, "%lld", v);
}

static void json_lib(FILE *o, const char *k, const cc_doc_lib *l)
{
    jkey(o, k, 0);
    fputc('{', o);
    jstr(o, "path", l->path, 1);
    jstr(o, "version", l->ok ? l->version : NULL, 0);
    jstr(o, "wheel", l->wheel, 0);
    jstr(o, "error", l->ok ? NULL : l->error, 0);
    fputc('}', o);
}

void cc_doc_print_agent_json(FILE *o, const cc_doc_agent *a)
{
    fputc('{', o);
    jkey(o, "checked", 1);
    fprintf(o, "%d", a->checked);
    jstr(o, "path", a->path, 0);
    jstr(o, "error", a->locate_error, 0);
    json_lib(o, "sanitizer", &a->sanitizer);
    json_lib(o, "cupti", &a->cupti);
    jkey(o, "tests", 0);
    fputc('[', o);
    for (int i = 0; a->checked && a->path[0] && i < 2; i++) {
        const cc_doc_injection *t = &a->inject[i];
        fputs(i ? ",{" : "{", o);
        jstr(o, "tool", t->tool, 1);
        jint(o, "ran", t->ran);
        jint(o, "status", t->status);
        jstr(o, "error", t->error, 0);
        jint(o, "agent_loaded", t->agent_loaded);
        jint(o, "reports", t->reports);
        jstr(o, "backend_library", t->backend_lib, 0);
        jint(o, "preload_failed", t->preload_failed);
        jint(o, "conflict", t->conflict);
        jint(o, "no_driver", t->no_driver);
        jint(o, "driver_used", t->driver_used);
        jint(o, "contexts", t->contexts);
        jstr(o, "message", t->message, 0);
        fputc('}', o);
    }
    fputc(']', o);
    jkey(o, "other_clients", 0);
    fputc('[', o);
    for (int i = 0; i < a->nclients; i++) {
        fputs(i ? ",{" : "{", o);
        jstr(o, "variable", a->clients[i].variable, 1);
        jstr(o, "value", a->clients[i].value, 0);
        jstr(o, "tool", a->clients[i].tool, 0);
        fputc('}', o);
    }
    fputs("]}", o);
}
