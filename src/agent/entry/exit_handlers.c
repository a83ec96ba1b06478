/* The end of a process, and fork: PROCESS_EXIT is emitted and the outputs closed from an on_exit
 * handler (exit() or return from main, with the exit status). A fatal signal (fatal_signal.c) or
 * _exit() (fast_exit.c) has its last words said by the fatal writer (fatal_writer.h): here are
 * the words, on the writer's thread (launches not read yet, PROCESS_EXIT unless a program
 * handler follows, the outputs flushed), and what the stopped thread writes itself (the
 * recording's complete records). A process killed by SIGKILL runs none of this: its stream ends
 * without PROCESS_EXIT, and its report holds what was flushed per finding.
 * fork: the parent's buffers are flushed before the fork; the child drops the parent's outputs and
 * opens its own (new pid, new report) on its first event, and gets a fatal writer of its own. */
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "agent/instr/instr.h"
#include "agent/core/self_time.h"
#include "agent/core/self_profile.h"
#include "agent/entry/driver_presence.h"
#include "agent/entry/fatal_signal.h"
#include "agent/entry/fatal_writer.h"
#include "agent/core/last_words.h"

static void cc_on_exit(int status, void *arg)
{
    (void)arg;
    cc_instr_on_process_end(0); /* memcheck: launches its exit hook did not read */
    cc_agent_events_stop(); /* the event thread's queue is analysed before the summary */
    cc_self_time_report();
    cc_self_profile_report();
    if (cc_self_time_on) {
        cc_agent_events_report();
    }
    cc_agent_note_missing_driver();
    cc_agent_close_outputs(CC_EXIT_NORMAL, status);
}

/* In the handler of the stopped thread (async-signal-safe): the recording's complete records
 * go out now, also when the thread stopped inside the recorder (core/evtio.h). */
static void cc_words_in_handler(const cc_fatal_request *r)
{
    (void)r;
    cc_evt_writer *recorder = cc_agent_g.recorder;
    if (recorder != NULL) {
        cc_evt_writer_flush(recorder);
    }
}

static void (*cc_last_word_hooks[CC_AGENT_LAST_WORD_HOOKS])(void);
static _Atomic int cc_nlast_word_hooks;

void cc_agent_on_last_words(void (*flush)(void))
{
    int i = atomic_fetch_add(&cc_nlast_word_hooks, 1);
    if (i < CC_AGENT_LAST_WORD_HOOKS) {
        cc_last_word_hooks[i] = flush;
    }
}

/* On the fatal writer's thread. */
static void cc_last_words(const cc_fatal_request *r)
{
    int hooks = atomic_load(&cc_nlast_word_hooks);
    for (int i = 0; i < hooks && i < CC_AGENT_LAST_WORD_HOOKS; i++) {
        if (cc_last_word_hooks[i] != NULL) {
            cc_last_word_hooks[i](); /* backends' activity (CUPTI) before PROCESS_EXIT */
        }
    }
    cc_instr_on_process_end(1); /* memcheck: records of launches not read yet, no wait */
    if (!r->ends_process) {
        cc_agent_emit_final(NULL); /* a program handler follows: flush only */
        return;
    }
    cc_event ev;
    cc_agent_event_init(&ev, CC_EV_PROCESS_EXIT);
    ev.h.tid = r->tid; /* the thread that stopped, at the moment it asked */
    ev.h.timestamp = r->timestamp_ns;
    if (r->kind == CC_FATAL_EXIT) {
        ev.u.process_exit.reason = CC_EXIT_FAST;
        ev.u.process_exit.code = r->code & 0xff;
    } else {
        ev.u.process_exit.reason = r->code == SIGABRT ? CC_EXIT_ABORT : CC_EXIT_SIGNAL;
        ev.u.process_exit.code = r->code;
    }
    cc_agent_emit_final(&ev); /* queued events first, then this one; flushed */
}

static const cc_fatal_words cc_agent_words = {
    .in_handler = cc_words_in_handler,
    .last_words = cc_last_words,
    .idle_ms = CC_FATAL_IDLE_MS,
    .limit_ms = CC_FATAL_LIMIT_MS,
};

static void cc_before_fork(void)
{
    /* Held across fork so that no event is half-written into a buffer the child would copy. */
    cc_agent_events_fork_prepare();
    pthread_rwlock_wrlock(&cc_agent_g.lock);
    cc_agent_flush_outputs_unlocked();
}

static void cc_after_fork_parent(void)
{
    pthread_rwlock_unlock(&cc_agent_g.lock);
    cc_agent_events_fork_parent();
}

static void cc_after_fork_child(void)
{
    cc_agent *a = &cc_agent_g;
    /* The parent's session and recorder belong to the parent: dropped here, never closed (that
     * would write the parent's summary). Their buffers were flushed before the fork. */
    pthread_rwlock_t fresh = PTHREAD_RWLOCK_INITIALIZER;
    a->lock = fresh;
    cc_agent_events_fork_child(); /* events are handed on at once in the child */
    int had_outputs = a->session != NULL;
    a->session = NULL;
    a->recorder = NULL;
    a->pid = getpid();
    atomic_store(&a->finished, 0);
    atomic_store(&a->reopen_pending, had_outputs);
    cc_agent_patches_after_fork();
    cc_agent_stacks_after_fork();
    cc_agent_kernel_names_after_fork();
    cc_instr_after_fork_child();
    cc_fatal_writer_after_fork_child(had_outputs);
}

void cc_agent_install_exit_handlers(void)
{
    if (cc_fatal_writer_start(&cc_agent_words) != 0) {
        cc_agent_note("no thread for the last words: a fatal signal or _exit() ends the process "
                      "with what was already written");
    }
    on_exit(cc_on_exit, NULL);
    cc_fatal_signals_install();
    pthread_atfork(cc_before_fork, cc_after_fork_parent, cc_after_fork_child);
}
