/* A sampling profile of the whole process, for the benchmarks (CUCHECK_SELF_PROFILE=US: a
 * sample every US microseconds of the process's CPU time, SIGPROF from a POSIX timer that
 * neither an exec nor a fork child keeps): where the program's threads
 * spend their time, by loaded object (the agent, the Sanitizer, the driver, PyTorch, Python) and
 * by the hottest sampled instructions, printed to stderr at exit with the self time. The
 * machines the benchmarks run on have no perf. The handler only counts (a lock-free table of
 * instruction addresses); a program's own SIGPROF handler wins (no profile then). */
#ifndef CUCHECK_AGENT_SELF_PROFILE_H
#define CUCHECK_AGENT_SELF_PROFILE_H

void cc_self_profile_start(void);  /* reads CUCHECK_SELF_PROFILE */
int cc_self_profile_on(void);      /* the timer runs: agent threads should take SIGPROF too */
void cc_self_profile_report(void); /* stderr; once, at exit */

#endif
