/* streamcheck's options (sc_options.h): table and the one reader that checks every value. */
#include "tools/streamcheck/sc_options.h"

#include <stdio.h>
#include <string.h>

#include "core/hb_engine.h"
#include "core/option_values.h"
#include "core/options.h"

const cc_option_spec cc_streamcheck_option_specs[] = {
    {"mode", 1, "full|default|api",
     "which access sets are used: full = instrumented on the device only; default = "
     "instrumented and learned, inferred where none; api = inferred from pointer arguments only "
     "(may report races on buffers a kernel does not touch)"},
    {"merge-host-threads", 0, NULL,
     "treat all host threads as one, ordered as their calls were seen (fewer reports when the "
     "program orders its threads itself)"},
    {"sync-copies", 1, "documented|full",
     "documented (default): only the host orderings the CUDA documentation guarantees; full: "
     "every synchronous cudaMemcpy waits for the copy to complete (CuSan's assumption)"},
    {"launch-skip", 1, "N",
     "check no accesses of the first N kernel launches (graph nodes included): they are still "
     "ordered, but are no side of a race; the agent still learns their access sets (default 0)"},
    {"launch-count", 1, "N", "then check the accesses of at most N kernel launches (0: no limit)"},
    {"library-races", 0, NULL,
     "also report races inside an NVIDIA library (cuDNN, cuBLAS, ...): on memory the library "
     "allocated for itself, with one side on a stream it created; by default they are counted "
     "in the closing note"},
    {NULL, 0, NULL, NULL},
};

int cc_streamcheck_options_read(cc_streamcheck_options *out, cc_option_get get, void *ctx,
                                char *err, size_t errlen)
{
    static const char *const modes[] = {"full", "default", "api", NULL}; /* as in the help */
    static const int mode_values[] = {CC_HB_MODE_FULL, CC_HB_MODE_DEFAULT, CC_HB_MODE_API};
    static const char *const copies[] = {"documented", "full", NULL};
    memset(out, 0, sizeof *out);
    out->mode = CC_HB_MODE_DEFAULT;
    const char *v = get(ctx, "mode");
    int i = 0;
    if (v != NULL) {
        if (cc_optval_choice("mode", v, modes, &i, err, errlen) != 0) {
            return -1;
        }
        out->mode = mode_values[i];
    }
    v = get(ctx, "sync-copies");
    if (v != NULL &&
        cc_optval_choice("sync-copies", v, copies, &out->sync_copies_full, err, errlen) != 0) {
        return -1;
    }
    out->merge_host_threads = get(ctx, "merge-host-threads") != NULL;
    out->library_races = get(ctx, "library-races") != NULL;
    v = get(ctx, "launch-skip");
    if (v != NULL &&
        cc_optval_uint("launch-skip", v, 0, UINT64_MAX, &out->launch_skip, err, errlen) != 0) {
        return -1;
    }
    v = get(ctx, "launch-count");
    if (v != NULL &&
        cc_optval_uint("launch-count", v, 0, UINT64_MAX, &out->launch_count, err, errlen) != 0) {
        return -1;
    }
    return 0;
}

int cc_streamcheck_options_parse(cc_streamcheck_options *out, const char *encoded, char *err,
                                 size_t errlen)
{
    cc_options *o = cc_options_parse(encoded);
    if (o == NULL) {
        snprintf(err, errlen, "malformed tool options");
        return -1;
    }
    int rc = cc_streamcheck_options_read(out, cc_options_getter, o, err, errlen);
    cc_options_free(o);
    return rc;
}

int cc_streamcheck_options_check(cc_option_get get, void *ctx, char *err, size_t errlen)
{
    cc_streamcheck_options o;
    return cc_streamcheck_options_read(&o, get, ctx, err, errlen);
}
