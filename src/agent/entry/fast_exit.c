/* _exit() and _Exit(): they end the process without running on_exit/atexit handlers (dash's `exit`
 * builtin does so, and so do many fork children, and programs' own crash handlers). When the
 * agent is LD_PRELOADed these definitions interpose on libc's: the fatal writer says the last
 * words (fatal_writer.h: PROCESS_EXIT with reason CC_EXIT_FAST, the recorder and reporter
 * flushed; the tool's end-of-run analysis does not run, as no exit handler would), then the
 * process ends with the exit_group system call, exactly what libc's _exit does.
 * They can run in signal handlers, in fork children and in vfork children (which share the
 * parent's memory): nothing here waits for a lock, the wait for the writer is bounded, and a
 * process that is not the one the agent opened its outputs for (vfork child, or fork child with
 * no event yet) only exits. When the agent is loaded through CUDA_INJECTION64_PATH these symbols
 * do not interpose, and an _exit() ends the stream without PROCESS_EXIT. */
#include <sys/syscall.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "agent/entry/fatal_writer.h"

static __attribute__((noreturn)) void cc_fast_exit(int status)
{
    cc_agent *a = &cc_agent_g;
    if (getpid() == a->pid && !atomic_load(&a->reopen_pending) && !atomic_load(&a->finished)) {
        cc_fatal_say(CC_FATAL_EXIT, status & 0xff, 1);
    }
    for (;;) {
        syscall(SYS_exit_group, status);
    }
}

__attribute__((visibility("default"), noreturn)) void _exit(int status)
{
    cc_fast_exit(status);
}

__attribute__((visibility("default"), noreturn)) void _Exit(int status)
{
    cc_fast_exit(status);
}
