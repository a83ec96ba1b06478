/* Spawning the checked program and waiting for it, with signal forwarding (spawn.h). */
#include "cli/spawn.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <fcntl.h>

static const int FORWARDED[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define NFORWARDED (sizeof FORWARDED / sizeof FORWARDED[0])

static volatile sig_atomic_t g_child;

static void forward(int sig, siginfo_t *info, void *ctx)
{
    (void)ctx;
    /* SI_KERNEL: sent by the terminal to the whole foreground process group, child included. */
    if (info && info->si_code == SI_KERNEL) {
        return;
    }
    pid_t child = (pid_t)g_child;
    if (child > 0) {
        int saved = errno;
        kill(child, sig);
        errno = saved;
    }
}

int cc_spawn_exec_status(int exec_errno)
{
    return exec_errno == ENOENT || exec_errno == ENOTDIR ? 127 : 126;
}

int cc_spawn_wait(char *const argv[], cc_spawn_result *r)
{
    memset(r, 0, sizeof *r);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        return -1;
    }
    struct sigaction old[NFORWARDED], sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigset_t block, oldmask;
    sigemptyset(&block);
    for (size_t i = 0; i < NFORWARDED; i++) {
        sigaddset(&block, FORWARDED[i]);
    }
    /* Block the forwarded signals until the child's pid is known to the handler. */
    sigprocmask(SIG_BLOCK, &block, &oldmask);
    for (size_t i = 0; i < NFORWARDED; i++) {
        sigaction(FORWARDED[i], &sa, &old[i]);
    }
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        for (size_t i = 0; i < NFORWARDED; i++) {
            sigaction(FORWARDED[i], &old[i], NULL);
        }
        sigprocmask(SIG_SETMASK, &oldmask, NULL);
        close(fds[0]);
        close(fds[1]);
        errno = e;
        return -1;
    }
    if (pid == 0) {
        for (size_t i = 0; i < NFORWARDED; i++) {
            sigaction(FORWARDED[i], &old[i], NULL);
        }
        sigprocmask(SIG_SETMASK, &oldmask, NULL);
        close(fds[0]);
        execvp(argv[0], argv);
        int e = errno;
        ssize_t w = write(fds[1], &e, sizeof e);
        (void)w;
        _exit(cc_spawn_exec_status(e));
    }
    g_child = pid;
    sigprocmask(SIG_SETMASK, &oldmask, NULL);
    close(fds[1]);

    int e = 0;
    ssize_t n;
    do {
        n = read(fds[0], &e, sizeof e);
    } while (n < 0 && errno == EINTR);
    close(fds[0]);
    if (n == (ssize_t)sizeof e) {
        r->exec_errno = e ? e : ENOEXEC;
    }

    int status = 0;
    pid_t w;
    do {
        w = waitpid(pid, &status, 0);
    } while (w < 0 && errno == EINTR);

    sigprocmask(SIG_BLOCK, &block, &oldmask);
    g_child = 0;
    for (size_t i = 0; i < NFORWARDED; i++) {
        sigaction(FORWARDED[i], &old[i], NULL);
    }
    sigprocmask(SIG_SETMASK, &oldmask, NULL);

    if (w < 0) {
        r->code = 1;
        return 0;
    }
    if (WIFSIGNALED(status)) {
        r->signo = WTERMSIG(status);
    } else if (WIFEXITED(status)) {
        r->code = WEXITSTATUS(status);
    }
    return 0;
}
