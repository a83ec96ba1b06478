/* Running the program: fork, execvp, forward SIGINT/SIGTERM/SIGHUP/SIGQUIT to the child, wait;
 * and running it once more quietly (no terminal, a time limit) for the second run after an
 * asynchronous error (cli/rerun.h). */
#ifndef CUCHECK_CLI_SPAWN_H
#define CUCHECK_CLI_SPAWN_H

typedef struct cc_spawn_result {
    int exec_errno; /* non-zero: the program could not be started (errno of execvp) */
    int signo;      /* non-zero: the program was killed by this signal */
    int code;       /* exit status when it exited */
    long pid;       /* the child's process id */
    double wall_s;  /* from the fork to the end of the wait */
} cc_spawn_result;

/* Start argv[0] (searched in PATH like a shell does) with the current environment and wait for
 * it. Signals sent to cucheck by another process (kill) are passed on to the child; those the
 * terminal sends already reach the child, which shares cucheck's process group, and are not
 * sent twice. Returns 0, or -1 if no child could be created (errno set). */
int cc_spawn_wait(char *const argv[], cc_spawn_result *r);

/* How a quiet run ended. */
typedef enum cc_spawn_end {
    CC_SPAWN_ENDED = 0,       /* by itself */
    CC_SPAWN_TIMED_OUT = 1,   /* killed at the time limit */
    CC_SPAWN_INTERRUPTED = 2, /* killed because cucheck got SIGINT, SIGTERM, SIGHUP or SIGQUIT */
} cc_spawn_end;

/* Start argv[0] in a process group of its own, stdin from /dev/null, stdout and stderr to
 * /dev/null, with the current environment; in_child (may be NULL) runs in the child before the
 * exec (it may set variables that need the child's pid). Waits at most limit_s seconds: then,
 * or when cucheck receives one of the forwarded signals meanwhile, the whole group is killed
 * (SIGKILL). Whatever the program left running in its group is killed when it ends. Returns 0
 * (r and *end set), or -1 if no child could be created (errno set). */
int cc_spawn_quiet(char *const argv[], double limit_s, void (*in_child)(void *), void *arg,
                   cc_spawn_result *r, cc_spawn_end *end);

/* The shell's exit status for a program that could not be started: 127 when not found, else 126. */
int cc_spawn_exec_status(int exec_errno);

#endif
