/* The end of a process, and fork: PROCESS_EXIT is emitted and the outputs closed from an on_exit
 * handler (exit() or return from main, with the exit status); fatal signals (SIGSEGV, SIGABRT,
 * SIGBUS, SIGFPE, SIGILL) emit it and flush the recorder and reporter, then die the way they
 * would have without the agent (or chain to the handler that was installed before ours).
 * A process that ends with _exit() (or is killed by SIGKILL) runs none of this: its stream ends
 * without PROCESS_EXIT, and its report holds what was flushed per finding.
 * fork: the parent's buffers are flushed before the fork; the child drops the parent's outputs and
 * opens its own (new pid, new report) on its first event. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "agent/instr/instr.h"
#include "agent/core/self_time.h"

static const int cc_fatal_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
#define CC_NFATAL (sizeof cc_fatal_signals / sizeof cc_fatal_signals[0])
static struct sigaction cc_previous[CC_NFATAL];
static volatile sig_atomic_t cc_in_fatal;

static void cc_on_exit(int status, void *arg)
{
    (void)arg;
    cc_instr_on_process_end(0); /* memcheck: launches its exit hook did not read */
    cc_agent_events_stop(); /* the event thread's queue is analysed before the summary */
    cc_self_time_report();
    if (cc_self_time_on) {
        cc_agent_events_report();
    }
    cc_agent_close_outputs(CC_EXIT_NORMAL, status);
}

static int cc_signal_index(int sig)
{
    for (size_t i = 0; i < CC_NFATAL; i++) {
        if (cc_fatal_signals[i] == sig) {
            return (int)i;
        }
    }
    return -1;
}

static void cc_fatal_handler(int sig, siginfo_t *info, void *uctx)
{
    int i = cc_signal_index(sig);
    if (i < 0) {
        return;
    }
    const struct sigaction *prev = &cc_previous[i];
    int prev_is_function = (prev->sa_flags & SA_SIGINFO)
                               ? prev->sa_sigaction != NULL
                               : (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN);
    if (!cc_in_fatal) {
        cc_in_fatal = 1;
        cc_instr_on_process_end(1); /* memcheck: records of launches not read yet, no wait */
        if (!prev_is_function) {
            /* The default action ends the process: say so in the stream. A program handler may
             * recover (a JVM does), so with one installed only the buffers are flushed. */
            cc_event ev;
            cc_agent_event_init(&ev, CC_EV_PROCESS_EXIT);
            ev.u.process_exit.reason = sig == SIGABRT ? CC_EXIT_ABORT : CC_EXIT_SIGNAL;
            ev.u.process_exit.code = sig;
            cc_agent_emit_final(&ev); /* queued events first, then this one; flushed */
        } else {
            cc_agent_emit_final(NULL);
        }
        cc_in_fatal = 0;
    }
    if (prev_is_function) {
        if (prev->sa_flags & SA_SIGINFO) {
            prev->sa_sigaction(sig, info, uctx);
        } else {
            prev->sa_handler(sig);
        }
        return;
    }
    /* Default action: restore it and let the signal happen again. A fault re-executes the
     * faulting instruction on return; a sent signal (kill, raise, abort) is raised again and
     * delivered once this handler returns. */
    sigaction(sig, prev, NULL);
    if (info == NULL || info->si_code <= 0) {
        raise(sig);
    }
}

static void cc_install_signal_handlers(void)
{
    for (size_t i = 0; i < CC_NFATAL; i++) {
        struct sigaction old;
        if (sigaction(cc_fatal_signals[i], NULL, &old) != 0) {
            continue;
        }
        if (!(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_IGN) {
            continue; /* an ignored signal stays ignored */
        }
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = cc_fatal_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
        sigemptyset(&sa.sa_mask);
        cc_previous[i] = old;
        sigaction(cc_fatal_signals[i], &sa, NULL);
    }
}

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
}

void cc_agent_install_exit_handlers(void)
{
    on_exit(cc_on_exit, NULL);
    cc_install_signal_handlers();
    pthread_atfork(cc_before_fork, cc_after_fork_parent, cc_after_fork_child);
}
