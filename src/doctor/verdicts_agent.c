/* Verdicts about the agent (topic "agent"): found or not, loaded by the dynamic loader or
 * refused, initialised and subscribed (it wrote a report), callbacks seen for the test's CUDA
 * work, the Compute Sanitizer library and CUPTI it loaded, and other tools clients that would
 * keep it from attaching. Every failure names what is missing and the fix. */
#include "doctor/verdicts.h"

#include <stdio.h>
#include <string.h>

static void judge_clients(cc_doc_report *r)
{
    const cc_doc_agent *a = &r->agent;
    for (int i = 0; i < a->nclients; i++) {
        const cc_doc_client *c = &a->clients[i];
        char fix[512];
        snprintf(fix, sizeof fix, "run cucheck outside %s (unset %s, or start cucheck in a "
                                  "shell the other tool did not set up)", c->tool, c->variable);
        cc_doc_add_verdict(r, CC_DOC_WARN, "agent", c->variable, fix,
                           "names %s (%s): one CUDA tools-API client per process, so under it "
                           "cucheck cannot attach (\"cannot attach: another CUDA tools-API "
                           "client ... is active\")", c->tool, c->value);
    }
}

/* The Compute Sanitizer backend's test: run, memcheck and streamcheck. */
static void judge_sanitizer_test(cc_doc_report *r, const cc_doc_injection *t)
{
    const cc_doc_agent *a = &r->agent;
    char subj[PATH_MAX + 32];
    snprintf(subj, sizeof subj, "%s", a->path);
    if (!t->ran) {
        cc_doc_add_verdict(r, CC_DOC_FAIL, "agent", subj, NULL,
                           "the injection test could not run: %s", t->error);
        return;
    }
    if (t->preload_failed) {
        cc_doc_add_verdict(r, CC_DOC_FAIL, "agent", subj,
                           "run `ldd` on the agent: libsanitizer-public.so must resolve (reinstall "
                           "with -DCUCHECK_INSTALL_SANITIZER=ON, or put its folder on "
                           "LD_LIBRARY_PATH)",
                           "the dynamic loader refused the agent: %s", t->message);
        return;
    }
    if (t->conflict) {
        cc_doc_add_verdict(r, CC_DOC_FAIL, "agent", subj,
                           "run cucheck outside compute-sanitizer, Nsight Systems/Compute or "
                           "another profiler",
                           "the agent loads but cannot subscribe: %s", t->message);
        return;
    }
    if (!t->agent_loaded && t->reports == 0) {
        cc_doc_add_verdict(r, CC_DOC_FAIL, "agent", subj,
                           "check that the file is cucheck's agent for this machine (file, "
                           "ldd), or rebuild it",
                           "the injection test did not load the agent%s%s",
                           t->message[0] ? ": " : "", t->message);
        return;
    }
    if (t->reports == 0) {
        cc_doc_add_verdict(r, CC_DOC_FAIL, "agent", subj,
                           "run `cucheck --verbose run -- /bin/true` to see the agent's messages",
                           "the agent loaded but did not initialise (no process report)%s%s",
                           t->message[0] ? ": " : "", t->message);
        return;
    }
    const char *lib = a->sanitizer.path[0] ? a->sanitizer.path : "libsanitizer-public.so";
    if (t->no_driver) {
        cc_doc_add_verdict(r, CC_DOC_WARN, "agent", subj,
                           "install the NVIDIA driver (see the driver verdict), or run on the "
                           "GPU machine",
                           "the agent loads (Compute Sanitizer: %s) and subscribes, but "
                           "programs' CUDA calls fail before they reach it: %s", lib,
                           t->message[0] ? t->message : "no CUDA driver could be loaded");
    } else if (t->driver_used && t->contexts > 0) {
        cc_doc_add_verdict(r, CC_DOC_OK, "agent", subj, NULL,
                           "injected like `cucheck run`: the agent initialised, subscribed "
                           "through %s and saw the test's context and allocation", lib);
    } else if (t->driver_used) {
        cc_doc_add_verdict(r, CC_DOC_FAIL, "agent", subj,
                           "check for another tools client (CUDA_INJECTION64_PATH, Nsight, "
                           "compute-sanitizer) and run `cucheck --verbose run -- PROGRAM`",
                           "the agent subscribed but no callback arrived for the test's "
                           "context and allocation");
    } else {
        cc_doc_add_verdict(r, CC_DOC_WARN, "agent", subj,
                           "see the driver verdict",
                           "the agent loads (Compute Sanitizer: %s) and subscribes, but the "
                           "test could not use the GPU: %s", lib,
                           t->message[0] ? t->message : "unknown reason");
    }
}

/* The CUPTI backend's test: profile and streamcheck --mode api. */
static void judge_cupti_test(cc_doc_report *r, const cc_doc_injection *t)
{
    const cc_doc_agent *a = &r->agent;
    if (!t->ran || t->preload_failed || (!t->agent_loaded && t->reports == 0))
        return; /* said by the Sanitizer test */
    if (!a->cupti.path[0]) {
        cc_doc_add_verdict(r, CC_DOC_WARN, "agent", "CUPTI",
                           "install the toolkit's CUPTI or the nvidia-cuda-cupti wheel, or set "
                           "CUCHECK_CUPTI=/path/to/libcupti.so",
                           "the agent found no CUPTI (profile and streamcheck --mode api need "
                           "it)%s%s", t->message[0] ? ": " : "", t->message);
        return;
    }
    char subj[PATH_MAX + 16];
    snprintf(subj, sizeof subj, "CUPTI %s", a->cupti.path);
    if (t->conflict)
        cc_doc_add_verdict(r, CC_DOC_FAIL, "agent", subj,
                           "run cucheck profile outside other profilers (Nsight, Kineto, "
                           "another CUPTI subscriber)",
                           "loaded, but another client holds CUPTI: %s", t->message);
    else if (t->reports > 0)
        cc_doc_add_verdict(r, CC_DOC_OK, "agent", subj, NULL,
                           "injected like `cucheck profile`: CUPTI %s loaded and subscribed",
                           a->cupti.version[0] ? a->cupti.version : "(version unknown)");
    else if (t->no_driver)
        cc_doc_add_verdict(r, CC_DOC_INFO, "agent", subj, NULL,
                           "loaded by the agent; without a driver it cannot subscribe");
    else
        cc_doc_add_verdict(r, CC_DOC_WARN, "agent", subj,
                           "see the driver verdict; `cucheck --verbose profile -- PROGRAM` shows "
                           "the agent's messages",
                           "loaded, but the profile test wrote no report%s%s",
                           t->message[0] ? ": " : "", t->message);
}

void cc_doc_judge_agent(cc_doc_report *r)
{
    const cc_doc_agent *a = &r->agent;
    if (!a->checked)
        return;
    judge_clients(r);
    if (!a->path[0]) {
        cc_doc_add_verdict(r, CC_DOC_FAIL, "agent", "libcucheck_agent.so",
                           "build it (scripts/build.sh) or set CUCHECK_AGENT=/path/to/"
                           "libcucheck_agent.so",
                           "%s: cucheck run, memcheck, streamcheck and profile cannot start",
                           a->locate_error[0] ? a->locate_error : "the agent was not found");
        return;
    }
    judge_sanitizer_test(r, &a->inject[0]);
    judge_cupti_test(r, &a->inject[1]);
}
