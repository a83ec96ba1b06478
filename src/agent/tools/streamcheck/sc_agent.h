/* streamcheck's instrumented and learned access sets, agent side. sc_client.c is streamcheck's
 * client of the instrumentation manager (instr_internal.h): it decides per launch, fills the
 * cc_sc_launch header and at LAUNCH_END turns the device's per-allocation ranges into
 * CC_ACCESS_SRC_INSTRUMENTED events and, in the default mode, into learned facts. sc_learn.c
 * keeps the per-kernel and per-shape facts (core/access_learn.h) and the calling thread's plan
 * for its current launch, which access_infer.c consults right after the launch event: learned
 * events, nothing (instrumented: its events come at LAUNCH_END; --mode full), or inferred.
 * --mode api never gets here (no client: everything is inferred). */
#ifndef CUCHECK_AGENT_SC_AGENT_H
#define CUCHECK_AGENT_SC_AGENT_H

#include <stddef.h>
#include <stdint.h>
#include <sanitizer.h>
#include "cucheck/event.h"
#include "core/access_learn.h"

#define CC_SC_MAX_ACC (2u * CC_AL_MAX_WORDS) /* learned access ranges of one launch */

typedef enum cc_sc_mode {
    CC_SC_MODE_DEFAULT = 0,
    CC_SC_MODE_FULL = 1,
    CC_SC_MODE_API = 2,
} cc_sc_mode;

/* The calling thread's current launch, from the client's decision to the launch event's end. */
typedef struct cc_sc_plan {
    int set;
    cc_al_action action;
    int bound;                      /* INSTRUMENT: a slot was bound (events come at LAUNCH_END) */
    cc_al_kernel *kernel;           /* default mode, arguments known; else NULL */
    cc_al_shape *shape;
    size_t nwords;
    cc_al_word words[CC_AL_MAX_WORDS];
    size_t nacc;                    /* LEARNED: the access set */
    cc_al_access acc[CC_SC_MAX_ACC];
} cc_sc_plan;

/* sc_learn.c. The functions marked "(locked)" run with cc_instr_g.lock held. */
extern _Thread_local cc_sc_plan cc_sc_plan_cur;
void cc_sc_learn_init(uint32_t mode);
uint32_t cc_sc_mode_get(void);      /* CC_SC_MODE_*; API when no client runs */
int cc_sc_untouched_inferred(void); /* policy: untouched pointer arguments get inferred ranges */
/* (locked) Decide for a launch in the default mode and set the plan. */
cc_al_action cc_sc_learn_decide(const Sanitizer_LaunchData *d);
/* (locked) Learn from an instrumented launch of the plan's kernel and shape. */
void cc_sc_learn_observe(cc_al_kernel *k, cc_al_shape *s, const char *kernel_name,
                         const cc_al_word *words, size_t nwords, const cc_al_range *ranges,
                         size_t nranges, uint64_t outside, uint64_t outside_first);
/* Right after the launch event (access_infer.c): emits the learned set, or says the launch needs
 * none from the caller. 1: handled (learned, instrumented, or --mode full); 0: infer it — then
 * *words / *nwords are the pointer arguments the decision already found (nwords 0: scan them). */
int cc_sc_after_launch(const cc_event *launch, const cc_al_word **words, size_t *nwords);

/* access_infer.c: the pointer arguments of the launch now at LAUNCH_BEGIN on this thread (from
 * its launch API call and the kernel's parameter layout). 1 if its arguments are known (the
 * words are then complete unless *truncated), 0 if not (no layout, or not a call we read). */
int cc_access_launch_words(const Sanitizer_LaunchData *d, cc_al_word *out, size_t cap,
                           size_t *n, int *truncated);

/* sc_client.c: streamcheck's client of the instrumentation manager for mode (CC_SC_MODE_DEFAULT
 * or CC_SC_MODE_FULL; --mode api instruments nothing and has none). */
struct cc_instr_client;
const struct cc_instr_client *cc_sc_client_init(uint32_t mode);

#endif
