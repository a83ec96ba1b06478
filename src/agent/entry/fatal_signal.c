/* The fatal-signal handler (fatal_signal.h). It is async-signal-safe: all the work that may lock
 * or allocate (reading unread launches, the final event and its analysis, flushing the report)
 * happens on the fatal writer's thread, which the handler waits for within bounds
 * (fatal_writer.c), so a crash on a thread that holds the session's, the reporter's or malloc's
 * lock still ends the process, with the crash's own signal. */
#include "agent/entry/fatal_signal.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include "agent/entry/fatal_writer.h"

static const int cc_fatal_signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};
#define CC_NFATAL (sizeof cc_fatal_signals / sizeof cc_fatal_signals[0])
static struct sigaction cc_previous[CC_NFATAL];
static int cc_installed;

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
    int saved_errno = errno;
    const struct sigaction *prev = &cc_previous[i];
    int prev_is_function = (prev->sa_flags & SA_SIGINFO)
                               ? prev->sa_sigaction != NULL
                               : (prev->sa_handler != SIG_DFL && prev->sa_handler != SIG_IGN);
    /* The default action ends the process: the last words say so. A program handler may recover
     * (a JVM does), so with one installed they only flush. */
    cc_fatal_say(CC_FATAL_SIGNAL, sig, !prev_is_function);
    errno = saved_errno;
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

void cc_fatal_signals_install(void)
{
    if (cc_installed) {
        return;
    }
    cc_installed = 1;
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
