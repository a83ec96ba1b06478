/* A checking session: one tool fed by one event stream, with its reporter and options. The live
 * agent and `cucheck replay` both drive tools through a session, so that both run the same code:
 *   s = cc_session_open(&cfg, err, n); for each event: cc_session_event(s, &ev); cc_session_close(s);
 * The session keeps the host stacks that CC_EV_HOST_STACK events define and offers them to the
 * tool, and passes findings to the reporter. */
#ifndef CUCHECK_CORE_SESSION_H
#define CUCHECK_CORE_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/tool.h"
#include "core/report.h"

typedef struct cc_session_config {
    /* The tool, found by the caller (the registry, src/tools/registry.c, is a layer above
     * core); NULL fails with "unknown tool". */
    const cc_tool *tool;
    /* Encoded tool options: "name=value" lines, see core/options.h. The tool's check_options
     * refuses bad values before its init runs. */
    const char *options;
    cc_report_config report;
} cc_session_config;

typedef struct cc_session cc_session;

cc_session *cc_session_open(const cc_session_config *cfg, char *err, size_t errlen);
void cc_session_event(cc_session *s, const cc_event *ev); /* thread-safe */
/* n events in order under one lock (no other thread's event between them). Thread-safe. */
void cc_session_events(cc_session *s, const cc_event *evs, size_t n);
cc_reporter *cc_session_reporter(cc_session *s);
/* Ends the stream: calls the tool's on_exit, closes the reporter. Returns the number of
 * distinct unsuppressed findings of severity error. */
uint64_t cc_session_close(cc_session *s);

/* Where a stack id the event stream has not defined yet can be obtained on demand (the agent's
 * pending stacks, for findings made mid-run): resolve hands the definition to sink(stack,
 * sink_arg) synchronously and returns 0, or returns -1. Called with the session's lock held. */
typedef void (*cc_session_stack_sink)(const cc_ev_host_stack *stack, void *sink_arg);
void cc_session_set_stack_resolver(cc_session *s,
                                   int (*resolve)(uint64_t id, cc_session_stack_sink sink,
                                                  void *sink_arg, void *arg),
                                   void *arg);

#endif
