/* The agent's outputs for the current process: the session (tool + reporter writing the JSON
 * Lines report named by CUCHECK_REPORT, its header naming the run of CUCHECK_RUN_ID and the
 * process's rank, core/rank_env.h) and the optional .cuevt recorder (CUCHECK_RECORD). Opened
 * at init, and again in a fork child for the child's own pid; closed once at process exit.
 * Neither is written through a link or into a file of someone else (core/owned_file.h): such a
 * name is taken, and the agent says so. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "core/agent_env.h"
#include "core/knob_table.h"
#include "core/report.h"

/* Expand pattern for this pid into out. A fork child whose pattern has no %p would reuse the
 * parent's file: it gets ".<pid>" appended instead. Returns 0, or -1 after printing why. */
static int cc_agent_expand_path(const char *env_name, const char *pattern, const char *parent_path,
                                pid_t pid, char *out, size_t outlen)
{
    if (cc_expand_report_name(pattern, (int)pid, out, outlen) != 0) {
        fprintf(stderr, "cucheck: %s='%s' is too long or has an unterminated %%q{: ignored\n",
                env_name, pattern);
        out[0] = '\0';
        return -1;
    }
    if (parent_path[0] != '\0' && strcmp(out, parent_path) == 0) {
        size_t len = strlen(out);
        int n = snprintf(out + len, outlen - len, ".%d", (int)pid);
        if (n < 0 || (size_t)n >= outlen - len) {
            out[len] = '\0';
            fprintf(stderr, "cucheck: %s path too long for a child process: ignored\n", env_name);
            out[0] = '\0';
            return -1;
        }
    }
    return 0;
}

/* Copies one CC_AGENT_PATH_MAX path buffer into another. */
static void cc_copy_path(char *dst, const char *src)
{
    size_t n = strnlen(src, CC_AGENT_PATH_MAX - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

static uint64_t cc_agent_print_limit(void)
{
    const char *v = getenv(CC_ENV_PRINT_LIMIT);
    if (v == NULL || v[0] == '\0') {
        return 0;
    }
    char *end = NULL;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (errno != 0 || end == v || *end != '\0' || v[0] == '-') {
        fprintf(stderr, "cucheck: %s='%s' is not a number: ignored\n", CC_ENV_PRINT_LIMIT, v);
        return 0;
    }
    return (uint64_t)n;
}

static void cc_agent_emit_process_start(void)
{
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_PROCESS_START);
    ev.u.process_start.pid = (uint32_t)getpid();
    ev.u.process_start.ppid = (uint32_t)getppid();
    ev.u.process_start.argv0 = program_invocation_name != NULL ? program_invocation_name : "";
    ev.u.process_start.tool = cc_agent_g.tool;
    ev.u.process_start.version = CUCHECK_VERSION;
    cc_agent_emit(&ev);
}

/* The session's resolver: a stack a finding needs before the stacks are flushed. */
static int resolve_stack(uint64_t id, cc_session_stack_sink sink, void *sink_arg, void *arg)
{
    (void)arg;
    return cc_agent_stack_resolve(id, sink, sink_arg);
}

int cc_agent_open_outputs(void)
{
    cc_agent *a = &cc_agent_g;
    pid_t pid = getpid();
    char parent_report[CC_AGENT_PATH_MAX];
    char parent_record[CC_AGENT_PATH_MAX];
    cc_copy_path(parent_report, a->report_path);
    cc_copy_path(parent_record, a->record_path);

    char report_path[CC_AGENT_PATH_MAX] = "";
    char record_path[CC_AGENT_PATH_MAX] = "";
    const char *report_pattern = getenv(CC_ENV_REPORT);
    if (report_pattern != NULL && report_pattern[0] != '\0') {
        cc_agent_expand_path(CC_ENV_REPORT, report_pattern, parent_report, pid, report_path,
                             sizeof report_path);
    }
    const char *record_pattern = getenv(CC_ENV_RECORD);
    if (record_pattern != NULL && record_pattern[0] != '\0') {
        cc_agent_expand_path(CC_ENV_RECORD, record_pattern, parent_record, pid, record_path,
                             sizeof record_path);
    }
    const char *suppressions = getenv(CC_ENV_SUPPRESSIONS);

    cc_session_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.tool = cc_tool_find(a->tool); /* NULL: the session says "unknown tool" */
    cfg.options = getenv(CC_ENV_OPTIONS);
    cfg.report.jsonl_path = report_path[0] != '\0' ? report_path : NULL;
    cfg.report.text_out = a->quiet ? NULL : stderr;
    cfg.report.print_limit = cc_agent_print_limit();
    cfg.report.suppressions_path =
        (suppressions != NULL && suppressions[0] != '\0') ? suppressions : NULL;
    cfg.report.tool = a->tool;
    cfg.report.run_id = getenv(CC_ENV_RUN_ID); /* NULL outside cucheck: a header without a run */
    cc_rank_info rank; /* read once per process: the launcher sets it before the program runs */
    cc_rank_info_from_env(&rank);
    cfg.report.rank = &rank;

    char err[512] = "";
    cc_session *session = cc_session_open(&cfg, err, sizeof err);
    if (session == NULL) {
        fprintf(stderr, "cucheck: cannot start tool '%s': %s; the program runs unchecked\n",
                a->tool, err[0] != '\0' ? err : "unknown error");
        return -1;
    }
    cc_session_set_stack_resolver(session, resolve_stack, NULL);
    /* A finding names the test running when it is made (python/cucheck/pytest_plugin.py sets the
     * variable); read per finding, never per event. Without memory findings name no test. */
    (void)cc_reporter_set_test_env(cc_session_reporter(session), CC_ENV_CURRENT_TEST);
    cc_knob_notes(cc_session_reporter(session), a->tool); /* knobs that change what is checked */
    cc_evt_writer *recorder = NULL;
    if (record_path[0] != '\0') {
        err[0] = '\0';
        recorder = cc_evt_writer_open(record_path, err, sizeof err);
        if (recorder == NULL) {
            fprintf(stderr, "cucheck: cannot record (%s); continuing without recording\n",
                    err[0] != '\0' ? err : record_path);
            record_path[0] = '\0';
        }
    }

    pthread_rwlock_wrlock(&a->lock);
    a->pid = pid;
    a->session = session;
    a->recorder = recorder;
    cc_copy_path(a->report_path, report_path);
    cc_copy_path(a->record_path, record_path);
    atomic_store(&a->finished, 0);
    pthread_rwlock_unlock(&a->lock);

    cc_agent_emit_process_start();
    cc_agent_flush_outputs(); /* the stream starts on disk even if the process never exits cleanly */
    return 0;
}

void cc_agent_close_outputs(uint32_t reason, int32_t code)
{
    cc_agent *a = &cc_agent_g;
    if (atomic_load(&a->reopen_pending) || a->session == NULL) {
        return; /* fork child that never produced an event, or an inert agent */
    }
    /* Recordings define every stack they name. Without one, symbolizing every stack seen is
     * wasted work (10.3 s for 119 stacks of a PyTorch run with libdw): findings got theirs on
     * demand through the session's stack resolver. */
    cc_agent_events_stop(); /* queued events are analysed before the stacks and the exit */
    if (a->recorder != NULL) {
        cc_agent_stacks_flush();
    }
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_PROCESS_EXIT);
    ev.u.process_exit.reason = reason;
    ev.u.process_exit.code = code;
    cc_agent_emit(&ev);

    pthread_rwlock_wrlock(&a->lock);
    atomic_store(&a->finished, 1);
    cc_session *session = a->session;
    cc_evt_writer *recorder = a->recorder;
    a->session = NULL;
    a->recorder = NULL;
    pthread_rwlock_unlock(&a->lock);

    if (recorder != NULL) {
        cc_evt_writer_close(recorder);
    }
    if (session != NULL) {
        cc_session_close(session);
    }
}

void cc_agent_flush_outputs_unlocked(void)
{
    cc_agent *a = &cc_agent_g;
    cc_evt_writer *recorder = a->recorder;
    cc_session *session = a->session;
    if (recorder != NULL) {
        cc_evt_writer_flush(recorder);
    }
    if (session != NULL) {
        cc_reporter *r = cc_session_reporter(session);
        if (r != NULL) {
            cc_reporter_flush(r);
        }
    }
}

void cc_agent_flush_outputs(void)
{
    pthread_rwlock_rdlock(&cc_agent_g.lock);
    cc_agent_flush_outputs_unlocked();
    pthread_rwlock_unlock(&cc_agent_g.lock);
}
