/* The fatal writer: a thread started before anything can go wrong, which says a process's last
 * words (the work a fatal signal or _exit() asks for: reading unread launches, the final event
 * and its analysis, flushing) on behalf of the thread that crashed or called _exit().
 *
 * That thread may hold any lock when it stops: the session's, the reporter's, malloc's, the
 * driver's. A signal handler that did the work itself would wait for that lock forever. So the
 * handler only does what is async-signal-safe: it writes what is already encoded (the caller's
 * in_handler hook), wakes the writer and waits for it, watching the writer's CPU time. A writer
 * that uses no CPU for idle_ms (it waits for a lock the stopped thread holds) or works past
 * limit_ms is abandoned, and the handler goes on to end the process the way it would have
 * without the agent. Findings are written as they are found, so what was written stays. */
#ifndef CUCHECK_AGENT_ENTRY_FATAL_WRITER_H
#define CUCHECK_AGENT_ENTRY_FATAL_WRITER_H

#include <stdint.h>

typedef enum cc_fatal_kind {
    CC_FATAL_SIGNAL = 1, /* code: the signal */
    CC_FATAL_EXIT = 2,   /* code: the _exit() status */
} cc_fatal_kind;

typedef struct cc_fatal_request {
    int kind;              /* cc_fatal_kind */
    int code;
    int ends_process;      /* 0: a program handler runs next and may recover (flush only) */
    uint32_t tid;          /* the thread that crashed or called _exit() */
    uint64_t timestamp_ns; /* CLOCK_MONOTONIC when it asked */
} cc_fatal_request;

typedef struct cc_fatal_words {
    /* On the asking thread, inside its handler: async-signal-safe calls only (writes what is
     * already encoded). May be NULL. */
    void (*in_handler)(const cc_fatal_request *r);
    /* On the writer thread: the last words proper (may lock, allocate, analyse). */
    void (*last_words)(const cc_fatal_request *r);
    unsigned idle_ms;  /* a writer that used no CPU for this long is abandoned */
    unsigned limit_ms; /* a writer still working after this long is abandoned */
} cc_fatal_words;

/* The agent's limits: the longest bounded wait inside the last words is the manager's 300 ms
 * for launches in flight; writing a profile's timeline may take seconds of CPU. */
#define CC_FATAL_IDLE_MS 2000u
#define CC_FATAL_LIMIT_MS 30000u

/* Starts the writer thread of this process (every signal blocked in it). 0, or -1 when no
 * thread could be started: then cc_fatal_say says nothing. Not from a signal handler. */
int cc_fatal_writer_start(const cc_fatal_words *words);
/* In a fork child (the parent's writer was not copied): forget it, and start a new one with the
 * same words when start is non-zero. */
void cc_fatal_writer_after_fork_child(int start);

/* Async-signal-safe. Asks the writer for the last words and waits until they are said or
 * abandoned. A request made while another one is in progress or after words that ended the
 * process (a second thread crashing, a nested signal) waits for those instead; after words
 * that did not end it (ends_process 0: a program handler follows) the next request is served.
 * Nothing happens in a process that has no writer of its own (a vfork child shares its
 * parent's) or on the writer thread itself. Returns 1 when the words were said, 0 when there
 * was nobody to say them, -1 when they were abandoned (no later request is served then). */
int cc_fatal_say(int kind, int code, int ends_process);

#endif
