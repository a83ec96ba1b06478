/* At a process's normal exit: when libcuda.so.1 was never loaded in it and cannot be, the
 * process's report says so (core/driver_note.h), since the program's CUDA calls then fail inside
 * the runtime before any callback reaches the agent. */
#ifndef CUCHECK_AGENT_ENTRY_DRIVER_PRESENCE_H
#define CUCHECK_AGENT_ENTRY_DRIVER_PRESENCE_H

void cc_agent_note_missing_driver(void);

#endif
