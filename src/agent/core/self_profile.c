/* The sampling profile behind CUCHECK_SELF_PROFILE (see self_profile.h). The samples go to a
 * table of its own, not core/hashmap.h: the signal handler may interrupt any code, so it may
 * neither lock nor grow, only claim fixed slots with atomic compare-and-swap. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "agent/core/self_profile.h"

#include <dlfcn.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include "agent/core/agent_knobs.h"

#define CC_PROF_SLOTS (1u << 16) /* distinct sampled addresses kept; later new ones are lost */
#define CC_PROF_TOP 60           /* addresses listed */
#define CC_PROF_OBJECTS 24       /* objects listed */

static _Atomic uint64_t cc_prof_pc[CC_PROF_SLOTS];
static _Atomic uint64_t cc_prof_n[CC_PROF_SLOTS];
static _Atomic uint64_t cc_prof_samples, cc_prof_lost;
static atomic_int cc_prof_on, cc_prof_reported;
static timer_t cc_prof_timer; /* set before the handler can run */

static uint64_t cc_prof_pc_of(void *uc)
{
#if defined(__x86_64__)
    return (uint64_t)((ucontext_t *)uc)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (uint64_t)((ucontext_t *)uc)->uc_mcontext.pc;
#else
    (void)uc;
    return 0;
#endif
}

/* Async-signal-safe: atomics on static memory only. */
static void cc_prof_handler(int sig, siginfo_t *info, void *uc)
{
    (void)sig;
    (void)info;
    uint64_t pc = cc_prof_pc_of(uc);
    /* CPU-time timers fire at the scheduler's ticks: expirations in between count here */
    int over = timer_getoverrun(cc_prof_timer);
    uint64_t w = 1 + (uint64_t)(over > 0 ? over : 0);
    atomic_fetch_add_explicit(&cc_prof_samples, w, memory_order_relaxed);
    if (pc == 0) {
        return;
    }
    uint64_t h = (pc * 0x9E3779B97F4A7C15ull) >> 48;
    for (unsigned probe = 0; probe < 64; probe++) {
        unsigned i = (unsigned)(h + probe) & (CC_PROF_SLOTS - 1);
        uint64_t seen = atomic_load_explicit(&cc_prof_pc[i], memory_order_relaxed);
        if (seen == 0) {
            uint64_t zero = 0;
            if (atomic_compare_exchange_strong(&cc_prof_pc[i], &zero, pc) || zero == pc) {
                atomic_fetch_add_explicit(&cc_prof_n[i], w, memory_order_relaxed);
                return;
            }
            seen = zero;
        }
        if (seen == pc) {
            atomic_fetch_add_explicit(&cc_prof_n[i], w, memory_order_relaxed);
            return;
        }
    }
    atomic_fetch_add_explicit(&cc_prof_lost, w, memory_order_relaxed);
}

void cc_self_profile_start(void)
{
    const char *v = cc_knob_get(CC_KNOB_SELF_PROFILE);
    long us = v != NULL ? strtol(v, NULL, 10) : 0;
    if (us <= 0) {
        return;
    }
    struct sigaction old;
    if (sigaction(SIGPROF, NULL, &old) != 0 || old.sa_handler != SIG_DFL) {
        fprintf(stderr, "cucheck: CUCHECK_SELF_PROFILE: the program handles SIGPROF itself: "
                        "no profile\n");
        return;
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = cc_prof_handler;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGPROF, &sa, NULL) != 0) {
        return;
    }
    /* A POSIX timer, not setitimer: it does not survive an exec (whose new image would die of
     * an unhandled SIGPROF) and a fork child does not inherit it. */
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_SIGNAL;
    sev.sigev_signo = SIGPROF;
    if (timer_create(CLOCK_PROCESS_CPUTIME_ID, &sev, &cc_prof_timer) != 0) {
        return;
    }
    struct itimerspec it;
    it.it_interval.tv_sec = us / 1000000;
    it.it_interval.tv_nsec = (us % 1000000) * 1000;
    it.it_value = it.it_interval;
    if (timer_settime(cc_prof_timer, 0, &it, NULL) == 0) {
        atomic_store(&cc_prof_on, 1);
    }
}

int cc_self_profile_on(void)
{
    return atomic_load(&cc_prof_on);
}

typedef struct cc_prof_object {
    const void *base;
    const char *name;
    uint64_t n;
} cc_prof_object;

static const char *cc_prof_short(const char *path)
{
    const char *s = path != NULL ? strrchr(path, '/') : NULL;
    return s != NULL ? s + 1 : (path != NULL && path[0] != '\0' ? path : "?");
}

/* Report-time copies: each kept address's count and the base of its loaded object. */
static uint64_t cc_prof_count[CC_PROF_SLOTS];
static const void *cc_prof_base[CC_PROF_SLOTS];

/* The CC_PROF_TOP addresses with the most samples (in the object loaded at `only`, or in any
 * object when it is NULL), each with its share of all samples. */
static void cc_prof_top(const void *only, uint64_t total)
{
    static uint8_t shown_mark[CC_PROF_SLOTS];
    memset(shown_mark, 0, sizeof shown_mark);
    for (int shown = 0; shown < CC_PROF_TOP; shown++) {
        unsigned best = CC_PROF_SLOTS;
        uint64_t best_n = 0;
        for (unsigned i = 0; i < CC_PROF_SLOTS; i++) {
            if (cc_prof_count[i] > best_n && !shown_mark[i] &&
                (only == NULL || cc_prof_base[i] == only)) {
                best_n = cc_prof_count[i];
                best = i;
            }
        }
        if (best == CC_PROF_SLOTS) {
            break;
        }
        shown_mark[best] = 1;
        uint64_t pc = atomic_load(&cc_prof_pc[best]);
        Dl_info info;
        memset(&info, 0, sizeof info);
        int found = dladdr((void *)(uintptr_t)pc, &info) != 0;
        fprintf(stderr, "cucheck:   %6.2f%% %s+0x%llx %s\n",
                total ? 100.0 * (double)best_n / (double)total : 0.0,
                found ? cc_prof_short(info.dli_fname) : "?",
                (unsigned long long)(found ? pc - (uint64_t)(uintptr_t)info.dli_fbase : pc),
                found && info.dli_sname != NULL ? info.dli_sname : "");
    }
}

void cc_self_profile_report(void)
{
    if (!atomic_load(&cc_prof_on) || atomic_exchange(&cc_prof_reported, 1)) {
        return;
    }
    timer_delete(cc_prof_timer);
    if (atomic_load(&cc_prof_samples) == 0) {
        return;
    }
    static cc_prof_object objs[256];
    size_t nobjs = 0;
    uint64_t total = atomic_load(&cc_prof_samples);
    for (unsigned i = 0; i < CC_PROF_SLOTS; i++) {
        uint64_t pc = atomic_load(&cc_prof_pc[i]), n = atomic_load(&cc_prof_n[i]);
        cc_prof_count[i] = pc != 0 ? n : 0;
        cc_prof_base[i] = NULL;
        if (pc == 0 || n == 0) {
            continue;
        }
        Dl_info info;
        const void *base = dladdr((void *)(uintptr_t)pc, &info) != 0 ? info.dli_fbase : NULL;
        const char *name = base != NULL ? info.dli_fname : "(anonymous)";
        cc_prof_base[i] = base;
        size_t k = 0;
        while (k < nobjs && objs[k].base != base) {
            k++;
        }
        if (k == nobjs && nobjs < sizeof objs / sizeof objs[0]) {
            objs[nobjs].base = base;
            objs[nobjs].name = name;
            objs[nobjs].n = 0;
            nobjs++;
        }
        if (k < nobjs) {
            objs[k].n += n;
        }
    }
    fprintf(stderr, "cucheck: sampling profile (pid %d): %llu samples, %llu not kept; by object:\n",
            (int)getpid(), (unsigned long long)total,
            (unsigned long long)atomic_load(&cc_prof_lost));
    for (int shown = 0; shown < CC_PROF_OBJECTS; shown++) {
        size_t best = nobjs;
        for (size_t k = 0; k < nobjs; k++) {
            if (objs[k].n > 0 && (best == nobjs || objs[k].n > objs[best].n)) {
                best = k;
            }
        }
        if (best == nobjs) {
            break;
        }
        fprintf(stderr, "cucheck:   %6.2f%% %s\n",
                total ? 100.0 * (double)objs[best].n / (double)total : 0.0,
                cc_prof_short(objs[best].name));
        objs[best].n = 0;
    }
    fprintf(stderr, "cucheck:   hottest addresses (object+offset, symbol where exported):\n");
    cc_prof_top(NULL, total);
    Dl_info self;
    if (dladdr((void *)(uintptr_t)cc_self_profile_report, &self) != 0) {
        fprintf(stderr, "cucheck:   hottest addresses in the agent:\n");
        cc_prof_top(self.dli_fbase, total);
    }
}
