/* The fatal signals (SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL): one handler that asks the fatal
 * writer for the last words (fatal_writer.h) and then lets the process end the way it would have
 * without the agent, or hands the signal to the handler that was installed before it. */
#ifndef CUCHECK_AGENT_ENTRY_FATAL_SIGNAL_H
#define CUCHECK_AGENT_ENTRY_FATAL_SIGNAL_H

/* Installs the handler for each fatal signal that is not ignored (once; later calls do
 * nothing). The caller starts the fatal writer first. */
void cc_fatal_signals_install(void);

#endif
