/* What the agent tracks, as a list of callback groups: the one parser of the run tool's
 * `--track` value and of CUCHECK_TRACK, shared by the tool's option check (CLI, replay, session)
 * and the agent. A spec is "on"/"all", "off"/"none", "callbacks", or a comma list of groups
 * (resource, launch, memcpy, memset, sync, events, graphs, runtime, driver, api = runtime +
 * driver, apiwork, stacks), a group written with a '-' before it removed ("on,-stacks"). */
#ifndef CUCHECK_CORE_TRACK_SPEC_H
#define CUCHECK_CORE_TRACK_SPEC_H

#include <stdint.h>

#define CC_TRACK_RESOURCE 0x001u /* contexts, streams, modules, functions, memory */
#define CC_TRACK_LAUNCH 0x002u
#define CC_TRACK_MEMCPY 0x004u
#define CC_TRACK_MEMSET 0x008u
#define CC_TRACK_SYNC 0x010u
#define CC_TRACK_EVENTS 0x020u
#define CC_TRACK_GRAPHS 0x040u
#define CC_TRACK_RUNTIME 0x080u /* runtime API calls: errors */
#define CC_TRACK_DRIVER 0x100u  /* driver API calls: errors */
#define CC_TRACK_STACKS 0x200u  /* host stacks of launches and failed calls */
#define CC_TRACK_ALL 0x3ffu
/* Every callback enabled, every handler returning at once: the bare price of subscribing. */
#define CC_TRACK_IDLE 0x400u
/* Only the API calls whose parameters the tracking reads (without runtime and driver). */
#define CC_TRACK_APIWORK 0x800u

/* 0 with *bits set, or -1 (unknown or empty group, empty spec) with *bits untouched. */
int cc_track_spec_parse(const char *spec, uint32_t *bits);
/* What a spec may hold, for messages. */
extern const char cc_track_spec_expected[];

#endif
