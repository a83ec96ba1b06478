/* Tests of the one options path: every registered tool has a check_options; each tool refuses
 * bad values (enums, whole numbers with sign, junk, overflow and range, globs, output patterns)
 * with one line naming the option, the value and what is accepted, and accepts good ones; a
 * session (the agent's and replay's path) refuses exactly what check_options refuses, with the
 * same words, before the tool's init; the parsers map values to the right settings; the value
 * helpers of core/option_values.h and the track list parser of core/track_spec.h. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/hb_engine.h"
#include "core/option_values.h"
#include "core/options.h"
#include "core/session.h"
#include "core/track_spec.h"
#include "tools/memcheck/memcheck_options.h"
#include "tools/profile/profile_options.h"
#include "tools/run/run_options.h"
#include "tools/streamcheck/sc_options.h"

typedef struct {
    const char *tool;
    const char *options; /* encoded */
    const char *error;   /* the whole expected message, or NULL when accepted */
} option_case;

static const option_case cases[] = {
    {"memcheck", "", NULL},
    {"memcheck", "mode=full\nchecks-per-kernel=1000000\non-error=stop\nleak-check=full\n"
                 "kernel-include=k*\nkernel-exclude=x\nlaunch-skip=0\n"
                 "launch-count=18446744073709551615\n", NULL},
    {"memcheck", "mode=bogus\n",
     "option '--mode' does not accept 'bogus' (expected full or adaptive)"},
    {"memcheck", "mode=\n", "option '--mode' does not accept '' (expected full or adaptive)"},
    {"memcheck", "checks-per-kernel=0\n",
     "option '--checks-per-kernel' does not accept '0' (expected a whole number from 1 to "
     "1000000)"},
    {"memcheck", "checks-per-kernel=1000001\n",
     "option '--checks-per-kernel' does not accept '1000001' (expected a whole number from 1 to "
     "1000000)"},
    {"memcheck", "launch-count=-3\n",
     "option '--launch-count' does not accept '-3' (expected a whole number, 0 or more)"},
    {"memcheck", "launch-count=+3\n",
     "option '--launch-count' does not accept '+3' (expected a whole number, 0 or more)"},
    {"memcheck", "launch-count= 3\n",
     "option '--launch-count' does not accept ' 3' (expected a whole number, 0 or more)"},
    {"memcheck", "launch-skip=3k\n",
     "option '--launch-skip' does not accept '3k' (expected a whole number, 0 or more)"},
    {"memcheck", "launch-skip=18446744073709551616\n",
     "option '--launch-skip' does not accept '18446744073709551616' (expected a whole number, "
     "0 or more)"},
    {"memcheck", "on-error=maybe\n",
     "option '--on-error' does not accept 'maybe' (expected continue or stop)"},
    {"memcheck", "leak-check=1\n",
     "option '--leak-check' does not accept '1' (expected full or no)"},
    {"memcheck", "kernel-include=\n",
     "option '--kernel-include' does not accept '' (expected a kernel name glob of 1 to 255 "
     "characters)"},
    {"streamcheck", "mode=api\nsync-copies=full\nmerge-host-threads=1\n", NULL},
    {"streamcheck", "mode=bogus\n",
     "option '--mode' does not accept 'bogus' (expected full, default or api)"},
    {"streamcheck", "sync-copies=bogus\n",
     "option '--sync-copies' does not accept 'bogus' (expected documented or full)"},
    {"run", "track=on,-stacks\nprogress=on\ncoredump=off\n", NULL},
    {"run", "track=on,,launch\n",
     "option '--track' does not accept 'on,,launch' (expected on, off, callbacks, or a comma "
     "list of resource, launch, memcpy, memset, sync, events, graphs, runtime, driver, api, "
     "apiwork, stacks, each removed when written with a '-' before it)"},
    {"run", "progress=1\n", "option '--progress' does not accept '1' (expected on or off)"},
    {"run", "coredump=yes\n", "option '--coredump' does not accept 'yes' (expected on or off)"},
    {"profile", "summary=none\ntrace=t.%p.json\nsummary-file=/tmp/s.%q{RANK}.txt\ngzip=1\n",
     NULL},
    {"profile", "summary=xml\n",
     "option '--summary' does not accept 'xml' (expected text, csv, json or none)"},
    {"profile", "trace=\n",
     "option '--trace' does not accept '' (expected a file name of 1 to 4095 characters)"},
    {"profile", "trace=t.%q{RANK.json\n",
     "option '--trace' does not accept 't.%q{RANK.json' (expected a file name in which every "
     "%q{VAR} is closed by '}')"},
    {"profile", "summary-file=/no/such/dir/s.txt\n",
     "option '--summary-file' does not accept '/no/such/dir/s.txt' (expected a file in an "
     "existing directory; '/no/such/dir': No such file or directory)"},
};

/* check_options and a session over the same encoded options agree, word for word. */
static void test_cases(void)
{
    char dir[] = "/tmp/cc_tool_options_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const option_case *c = &cases[i];
        const cc_tool *tool = cc_tool_find(c->tool);
        CHECK(tool != NULL && tool->check_options != NULL);
        if (tool == NULL || tool->check_options == NULL) continue;
        cc_options *o = cc_options_parse(c->options);
        CHECK(o != NULL);
        char err[1024] = "";
        int rc = tool->check_options(cc_options_getter, o, err, sizeof err);
        cc_options_free(o);
        if (c->error == NULL) {
            if (rc != 0) fprintf(stderr, "case %zu (%s): refused: %s\n", i, c->tool, err);
            CHECK(rc == 0);
        } else {
            CHECK(rc != 0);
            CHECK_STR(err, c->error);
        }

        char path[256];
        snprintf(path, sizeof path, "%s/r.jsonl", dir);
        cc_session_config cfg = {0};
        cfg.tool = tool;
        cfg.options = c->options;
        cfg.report.jsonl_path = path;
        char serr[1024] = "";
        cc_session *s = cc_session_open(&cfg, serr, sizeof serr);
        if (c->error == NULL) {
            CHECK(s != NULL);
        } else {
            CHECK(s == NULL);
            CHECK_STR(serr, c->error);
        }
        if (s != NULL) cc_session_close(s);
        unlink(path);
    }
    rmdir(dir);
}

static void test_registry(void)
{
    size_t n = 0;
    for (const cc_tool *const *t = cc_tool_list(); *t; t++, n++) {
        CHECK((*t)->check_options != NULL);
        CHECK((*t)->options != NULL);
        char err[256] = "";
        cc_options *empty = cc_options_new();
        CHECK((*t)->check_options(cc_options_getter, empty, err, sizeof err) == 0);
        cc_options_free(empty);
    }
    CHECK(n >= 4);
    char err[64] = "";
    cc_session_config cfg = {0}; /* no tool */
    CHECK(cc_session_open(&cfg, err, sizeof err) == NULL);
    CHECK_STR(err, "unknown tool");
}

/* What the parsers make of the values. */
static void test_settings(void)
{
    char err[512];
    cc_memcheck_config mc;
    CHECK(cc_memcheck_config_parse(&mc, "", err, sizeof err) == 0);
    CHECK(!mc.full && !mc.stop_on_error && !mc.leak_check);
    CHECK_EQ_U64(mc.checks_per_kernel, CC_MC_DEFAULT_CHECKS_PER_KERNEL);
    CHECK(cc_memcheck_config_parse(&mc, "mode=full\non-error=stop\nleak-check=full\n"
                                        "checks-per-kernel=7\nlaunch-skip=5\nlaunch-count=9\n"
                                        "kernel-include=a*\n",
                                   err, sizeof err) == 0);
    CHECK(mc.full && mc.stop_on_error && mc.leak_check);
    CHECK_EQ_U64(mc.checks_per_kernel, 7);
    CHECK_EQ_U64(mc.launch_skip, 5);
    CHECK_EQ_U64(mc.launch_count, 9);
    CHECK_STR(mc.kernel_include, "a*");
    CHECK(cc_memcheck_config_parse(&mc, "mode=adaptive\non-error=continue\nleak-check=no\n", err,
                                   sizeof err) == 0);
    CHECK(!mc.full && !mc.stop_on_error && !mc.leak_check);

    cc_streamcheck_options sc;
    CHECK(cc_streamcheck_options_parse(&sc, "", err, sizeof err) == 0);
    CHECK(sc.mode == CC_HB_MODE_DEFAULT && !sc.sync_copies_full && !sc.merge_host_threads);
    CHECK(cc_streamcheck_options_parse(&sc, "mode=full\nsync-copies=full\nmerge-host-threads=1\n",
                                       err, sizeof err) == 0);
    CHECK(sc.mode == CC_HB_MODE_FULL && sc.sync_copies_full && sc.merge_host_threads);
    CHECK(cc_streamcheck_options_parse(&sc, "mode=api\nsync-copies=documented\n", err,
                                       sizeof err) == 0);
    CHECK(sc.mode == CC_HB_MODE_API && !sc.sync_copies_full);
    CHECK(cc_streamcheck_options_parse(&sc, "broken line\n", err, sizeof err) != 0);

    cc_options *o = cc_options_parse("track=launch,stacks\nprogress=on\ncoredump=on\n");
    cc_run_options ro;
    CHECK(cc_run_options_read(&ro, cc_options_getter, o, err, sizeof err) == 0);
    CHECK(ro.track_given && ro.track == (CC_TRACK_LAUNCH | CC_TRACK_STACKS));
    CHECK(ro.progress && ro.coredump);
    cc_options_free(o);
    o = cc_options_new();
    CHECK(cc_run_options_read(&ro, cc_options_getter, o, err, sizeof err) == 0);
    CHECK(!ro.track_given && !ro.progress && !ro.coredump);
    cc_options_free(o);

    o = cc_options_parse("summary=csv\ntrace=t.json\ngzip=1\n");
    cc_profile_options po;
    CHECK(cc_profile_options_read(&po, cc_options_getter, o, err, sizeof err) == 0);
    CHECK(po.format == CC_PROF_SUMMARY_CSV && !po.summary_none && po.gzip);
    CHECK_STR(po.trace, "t.json");
    CHECK(po.summary_file == NULL);
    cc_options_free(o);
    o = cc_options_parse("summary=none\n");
    CHECK(cc_profile_options_read(&po, cc_options_getter, o, err, sizeof err) == 0);
    CHECK(po.summary_none && po.trace == NULL && !po.gzip);
    cc_options_free(o);
}

static void test_track(void)
{
    uint32_t b = 0;
    CHECK(cc_track_spec_parse("on", &b) == 0 && b == CC_TRACK_ALL);
    CHECK(cc_track_spec_parse("all", &b) == 0 && b == CC_TRACK_ALL);
    CHECK(cc_track_spec_parse("off", &b) == 0 && b == 0);
    CHECK(cc_track_spec_parse("none", &b) == 0 && b == 0);
    CHECK(cc_track_spec_parse("callbacks", &b) == 0 &&
          b == (CC_TRACK_ALL | CC_TRACK_IDLE));
    CHECK(cc_track_spec_parse("on,-stacks", &b) == 0 &&
          b == (CC_TRACK_ALL & ~CC_TRACK_STACKS));
    CHECK(cc_track_spec_parse("api", &b) == 0 &&
          b == (CC_TRACK_RUNTIME | CC_TRACK_DRIVER));
    CHECK(cc_track_spec_parse("on,-api,apiwork", &b) == 0 &&
          b == ((CC_TRACK_ALL & ~(CC_TRACK_RUNTIME | CC_TRACK_DRIVER)) |
                CC_TRACK_APIWORK));
    b = 12345;
    const char *bad[] = {"", ",", "on,", ",on", "on,,off", "-", "bogus", "on,bogus", "ON",
                         "on ,launch"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(cc_track_spec_parse(bad[i], &b) != 0);
    }
    CHECK(b == 12345); /* untouched on error */
    CHECK(cc_track_spec_parse(NULL, &b) != 0);
}

static void test_values(void)
{
    char err[512];
    uint64_t v = 0;
    CHECK(cc_optval_uint("n", "18446744073709551615", 0, UINT64_MAX, &v, err, sizeof err) == 0);
    CHECK(v == UINT64_MAX);
    CHECK(cc_optval_uint("n", "0007", 0, 10, &v, err, sizeof err) == 0 && v == 7);
    CHECK(cc_optval_uint("n", "11", 0, 10, &v, err, sizeof err) != 0);
    CHECK_STR(err, "option '--n' does not accept '11' (expected a whole number from 0 to 10)");
    CHECK(cc_optval_uint("n", NULL, 0, 10, &v, err, sizeof err) != 0);
    CHECK(cc_optval_uint("n", "1e3", 0, UINT64_MAX, &v, err, sizeof err) != 0);
    CHECK(cc_optval_uint("n", "3\n", 0, UINT64_MAX, &v, err, sizeof err) != 0);

    static const char *const one[] = {"only", NULL};
    static const char *const two[] = {"a", "b", NULL};
    int idx = -1;
    CHECK(cc_optval_choice("x", "b", two, &idx, err, sizeof err) == 0 && idx == 1);
    CHECK(cc_optval_choice("x", "c", one, &idx, err, sizeof err) != 0);
    CHECK_STR(err, "option '--x' does not accept 'c' (expected only)");
    CHECK(cc_optval_choice("x", NULL, two, &idx, err, sizeof err) != 0);
    CHECK_STR(err, "option '--x' does not accept '' (expected a or b)");

    int on = -1;
    CHECK(cc_optval_switch("s", "on", &on, err, sizeof err) == 0 && on == 1);
    CHECK(cc_optval_switch("s", "off", &on, err, sizeof err) == 0 && on == 0);
    CHECK(cc_optval_switch("s", "true", &on, err, sizeof err) != 0);

    char longv[300];
    memset(longv, 'z', sizeof longv - 1);
    longv[sizeof longv - 1] = '\0';
    CHECK(cc_optval_text("g", longv, 255, "a glob", err, sizeof err) != 0);
    CHECK(strstr(err, "...' (expected a glob of 1 to 255 characters)") != NULL);
    CHECK(strlen(err) < 200); /* the value is cut */
    CHECK(cc_optval_text("g", "k", 255, "a glob", err, sizeof err) == 0);

    CHECK(cc_optval_output_pattern("o", "/tmp/x.%p.json", err, sizeof err) == 0);
    CHECK(cc_optval_output_pattern("o", "x.json", err, sizeof err) == 0);
    CHECK(cc_optval_output_pattern("o", "/x.json", err, sizeof err) == 0);
    CHECK(cc_optval_output_pattern("o", "/no-such-%q{RANK}/x.json", err, sizeof err) == 0);
    CHECK(cc_optval_output_pattern("o", "/etc/passwd/x.json", err, sizeof err) != 0);
    CHECK(strstr(err, "'/etc/passwd': not a directory") != NULL);
}

int main(void)
{
    test_registry();
    test_cases();
    test_settings();
    test_track();
    test_values();
    TEST_MAIN_END();
}
