/* profile's options: their table and the one parser of their values, used by the tool's
 * check_options (the CLI's up-front check, replay, the session) and its init. */
#ifndef CUCHECK_TOOLS_PROFILE_OPTIONS_H
#define CUCHECK_TOOLS_PROFILE_OPTIONS_H

#include <stddef.h>
#include "cucheck/tool.h"
#include "tools/profile/profile.h"

typedef struct cc_profile_options {
    const char *trace;          /* --trace FILE pattern; NULL: no timeline */
    const char *summary_file;   /* --summary-file FILE pattern; NULL: summary on stderr */
    int summary_none;           /* --summary none */
    cc_prof_format format;      /* --summary text|csv|json */
    int gzip;                   /* --gzip */
    const char *merge_trace;    /* --merge-trace FILE (the CLI's); NULL: none */
} cc_profile_options;

extern const cc_option_spec cc_profile_option_specs[];

/* Fill out from a getter of option values (NULL = not given); the patterns point into the
 * getter's strings. 0, or -1 with one line in err. */
int cc_profile_options_read(cc_profile_options *out, cc_option_get get, void *ctx, char *err,
                            size_t errlen);
/* Does a --trace pattern give each process its own file (it has %p, %q{VAR} or %r)? */
int cc_profile_trace_per_process(const char *pattern);
/* The tool's check_options: cc_profile_options_read into a scratch struct. */
int cc_profile_options_check(cc_option_get get, void *ctx, char *err, size_t errlen);

#endif
