/* cucheck tool interface: every analysis (memcheck, streamcheck, ...) is a cc_tool. The live agent
 * and `cucheck replay` drive the same tool code: init once, on_event for every event in order,
 * on_exit once at the end (also when the program crashed; the last event may then be missing).
 * A tool lives in src/tools/<name>/ and is listed once in src/tools/registry.c; whoever opens a
 * session (src/core/session.h) finds the tool there and hands it over.
 *
 * Options have one path: a tool's check_options is the one parser and validator of its option
 * values. The CLI calls it before it starts the program, `cucheck replay` before it reads
 * events, and the session before init; init reads the values through the same parser. */
#ifndef CUCHECK_TOOL_H
#define CUCHECK_TOOL_H

#include "cucheck/event.h"
#include "cucheck/finding.h"

#ifdef __cplusplus
extern "C" {
#endif

/* One option a tool accepts, as `--name VALUE` (takes_value) or `--name` on the command line. */
typedef struct cc_option_spec {
    const char *name;      /* without the leading dashes */
    int takes_value;
    const char *value_name; /* for help: "N", "FILE", ... */
    const char *help;
} cc_option_spec;

/* Where option values come from: the value of option `name` ("1" for a flag that was given), or
 * NULL when it was not given. ctx is the source's own state. */
typedef const char *(*cc_option_get)(void *ctx, const char *name);

/* What the driver (agent or replay) offers a running tool. */
typedef struct cc_tool_host {
    /* Report a finding; the reporter deduplicates, suppresses, counts and writes it at once. */
    void (*report)(struct cc_tool_host *host, const cc_finding *finding);
    /* The value of a tool option ("1" for a flag that was given), or NULL if not given. */
    const char *(*option)(struct cc_tool_host *host, const char *name);
    /* A host stack defined by an earlier CC_EV_HOST_STACK event, or NULL. */
    const cc_ev_host_stack *(*stack)(struct cc_tool_host *host, uint64_t callsite);
    /* Say what was checked ("kernels checked 214/214, launches instrumented 1,204/81,000");
     * printed after the findings and kept in the report file. */
    void (*note)(struct cc_tool_host *host, const char *text);
    void *impl;            /* the driver's own state */
} cc_tool_host;

/* A cc_option_get over a host's options (ctx is the cc_tool_host *), for init. */
static inline const char *cc_tool_host_option(void *ctx, const char *name) {
    cc_tool_host *host = (cc_tool_host *)ctx;
    return host->option(host, name);
}

/* cc_tool.flags */
/* (none defined: a tool's agent half learns what it needs in the process, e.g. memcheck reads
 * PyTorch's tensor bounds from the caching allocator without changing the program's settings) */

typedef struct cc_tool {
    const char *name;
    const char *summary;            /* one line for `cucheck --help` */
    const cc_option_spec *options;  /* terminated by an entry with name == NULL; may be NULL */
    /* Parse and check every option value that get(ctx, name) gives: 0, or -1 with one line in
     * err naming the option, the bad value and what is accepted ("option '--mode' does not
     * accept 'x' (expected full or adaptive)"). NULL for a tool whose options need no check. */
    int (*check_options)(cc_option_get get, void *ctx, char *err, size_t errlen);
    /* Create the tool's state, reading the options through the parser check_options uses; NULL
     * with a message in err on failure (bad option value, out of memory). */
    void *(*init)(cc_tool_host *host, char *err, size_t errlen);
    void (*on_event)(void *state, const cc_event *ev);
    /* End of the event stream: report what is only known at the end, then free the state. */
    void (*on_exit)(void *state);
    unsigned flags;                 /* CC_TOOL_FLAG_* */
} cc_tool;

/* The registry (src/tools/registry.c). */
const cc_tool *cc_tool_find(const char *name);
const cc_tool *const *cc_tool_list(void); /* NULL-terminated */

#ifdef __cplusplus
}
#endif
#endif
