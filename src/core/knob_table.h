/* The agent's environment knobs as data (the table in core/agent_knobs.inc): the CLI removes
 * those a run did not ask for from the program's environment (src/cli/run_knobs.c), and the
 * agent names in its report every knob set in the process that changes what the tool checks. */
#ifndef CUCHECK_CORE_KNOB_TABLE_H
#define CUCHECK_CORE_KNOB_TABLE_H

#include <stddef.h>
#include "core/report.h"

typedef enum cc_knob_kind {
    CC_KNOB_KIND_USER,  /* passed on from the environment */
    CC_KNOB_KIND_AID,   /* a measuring aid: passed on only when asked for (--knob) */
    CC_KNOB_KIND_AGENT, /* set by the agent for its children: never passed on */
} cc_knob_kind;

typedef struct cc_knob_info {
    const char *name;          /* the environment variable */
    cc_knob_kind kind;
    const char *values;        /* what it accepts, for people */
    const char *meaning;
    int changes_checks;        /* it changes what a tool checks ... */
    const char *checks_tool;   /* ... of this tool (NULL: every tool) */
    const char *checks_value;  /* ... when set to this value (NULL: any value) */
} cc_knob_info;

size_t cc_knob_info_count(void);
const cc_knob_info *cc_knob_info_at(size_t i);
const cc_knob_info *cc_knob_info_find(const char *name); /* NULL: not a knob */
const char *cc_knob_kind_name(cc_knob_kind kind);        /* "user", "aid", "agent" */

/* 1 if `k`, set to `value` (NULL or "": unset), changes what `tool` checks. */
int cc_knob_changes_checks(const cc_knob_info *k, const char *tool, const char *value);

/* Writes one note per knob set in this process's environment that changes what `tool` checks:
 * "CUCHECK_MC_PATCH=floor is in effect: memcheck patches empty functions and checks no device
 * access (a measuring aid)". Returns how many. */
size_t cc_knob_notes(cc_reporter *r, const char *tool);

#endif
