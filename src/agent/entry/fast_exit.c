/* _exit() and _Exit(): they end the process without running on_exit/atexit handlers (dash's `exit`
 * builtin does so, and so do many fork children). When the agent is LD_PRELOADed these
 * definitions interpose on libc's: they emit PROCESS_EXIT with reason CC_EXIT_FAST, flush the
 * recorder and reporter (the tool's end-of-run analysis does not run, as no exit handler would),
 * then end the process with the exit_group system call, exactly what libc's _exit does.
 * They can run in signal handlers, in fork children and in vfork children (which share the
 * parent's memory): nothing here waits for a lock, and a process that is not the one the agent
 * opened its outputs for (vfork child, or fork child with no event yet) only exits. When the
 * agent is loaded through CUDA_INJECTION64_PATH these symbols do not interpose, and an _exit()
 * ends the stream without PROCESS_EXIT. */
#include <sys/syscall.h>
#include <unistd.h>
#include "agent/core/agent.h"
#include "agent/instr/instr.h"

static __attribute__((noreturn)) void cc_fast_exit(int status)
{
    cc_agent *a = &cc_agent_g;
    if (getpid() == a->pid && !atomic_load(&a->reopen_pending) && !atomic_load(&a->finished)) {
        cc_instr_on_process_end(1); /* memcheck: records of launches not read yet, no wait */
        cc_event ev;
        cc_agent_event_init(&ev, CC_EV_PROCESS_EXIT);
        ev.u.process_exit.reason = CC_EXIT_FAST;
        ev.u.process_exit.code = status & 0xff;
        cc_agent_emit_final(&ev); /* queued events first, then this one; flushed */
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
