/* Running the program: fork, execvp, forward SIGINT/SIGTERM/SIGHUP/SIGQUIT to the child, wait. */
#ifndef CUCHECK_CLI_SPAWN_H
#define CUCHECK_CLI_SPAWN_H

typedef struct cc_spawn_result {
    int exec_errno; /* non-zero: the program could not be started (errno of execvp) */
    int signo;      /* non-zero: the program was killed by this signal */
    int code;       /* exit status when it exited */
} cc_spawn_result;

/* Start argv[0] (searched in PATH like a shell does) with the current environment and wait for
 * it. Signals sent to cucheck by another process (kill) are passed on to the child; those the
 * terminal sends already reach the child, which shares cucheck's process group, and are not
 * sent twice. Returns 0, or -1 if no child could be created (errno set). */
int cc_spawn_wait(char *const argv[], cc_spawn_result *r);

/* The shell's exit status for a program that could not be started: 127 when not found, else 126. */
int cc_spawn_exec_status(int exec_errno);

#endif
