/* streamcheck's options: their table and the one parser of their values, used by the tool's
 * check_options (the CLI's up-front check, replay, the session) and its init, and offered to the
 * agent, which picks its access-set client by the mode (src/agent/sc_client.c) and its API
 * backend by it (src/agent/cupti_api_source.c). */
#ifndef CUCHECK_TOOLS_STREAMCHECK_OPTIONS_H
#define CUCHECK_TOOLS_STREAMCHECK_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/tool.h"

typedef struct cc_streamcheck_options {
    int mode;               /* CC_HB_MODE_* (core/hb_engine.h): --mode default|full|api */
    int sync_copies_full;   /* --sync-copies full */
    int merge_host_threads; /* --merge-host-threads */
    int library_races;      /* --library-races: report races inside NVIDIA libraries too */
    uint64_t launch_skip;   /* kernel launches whose accesses are not checked at first */
    uint64_t launch_count;  /* then the accesses of at most this many are checked; 0 = all */
} cc_streamcheck_options;

extern const cc_option_spec cc_streamcheck_option_specs[];

/* Fill out from a getter of option values (NULL = not given). 0, or -1 with one line in err. */
int cc_streamcheck_options_read(cc_streamcheck_options *out, cc_option_get get, void *ctx,
                                char *err, size_t errlen);
/* The same from the encoded form of core/options.h (CUCHECK_OPTIONS). */
int cc_streamcheck_options_parse(cc_streamcheck_options *out, const char *encoded, char *err,
                                 size_t errlen);
/* The tool's check_options: cc_streamcheck_options_read into a scratch struct. */
int cc_streamcheck_options_check(cc_option_get get, void *ctx, char *err, size_t errlen);

#endif
