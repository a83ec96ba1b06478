/* Backends' flushes for the last words of a fatal signal or _exit() (entry/exit_handlers.c): run
 * on the fatal writer's thread before PROCESS_EXIT, never in a signal handler. A header of its
 * own: the CUPTI backend cannot include agent.h (the Sanitizer's and CUPTI's headers clash). */
#ifndef CUCHECK_AGENT_LAST_WORDS_H
#define CUCHECK_AGENT_LAST_WORDS_H

#define CC_AGENT_LAST_WORD_HOOKS 4

/* Registers flush (at most CC_AGENT_LAST_WORD_HOOKS; later ones are dropped). Not from a signal
 * handler. */
void cc_agent_on_last_words(void (*flush)(void));

#endif
