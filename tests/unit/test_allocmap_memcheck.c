/* memcheck's host-side analysis through a real session (the tool, its options and the reporter):
 * leaks with --leak-check full and without, folding of one device violation reported twice,
 * and option validation. Scenarios in tests/scenarios/memcheck cover the rest. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "check.h"
#include "core/evtio.h"
#include "core/session.h"
#include "cucheck/tool.h"

/* Replay scenario text through memcheck with options; returns the report file's text. */
static char *replay(const char *scn, const char *options, uint64_t *errors)
{
    char path[] = "/tmp/cc-mc-test-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) {
        return NULL;
    }
    close(fd);
    cc_session_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.tool = cc_tool_find("memcheck");
    cfg.options = options;
    cfg.report.jsonl_path = path;
    cfg.report.tool = "memcheck";
    char err[256] = "";
    cc_session *s = cc_session_open(&cfg, err, sizeof err);
    if (s == NULL) {
        unlink(path);
        return NULL;
    }
    cc_evt_reader *r = cc_evt_reader_open_mem(scn, strlen(scn), 1, err, sizeof err);
    CHECK(r != NULL);
    cc_event ev;
    int rc = 0;
    while (r != NULL && (rc = cc_evt_read(r, &ev, err, sizeof err)) == 1) {
        cc_session_event(s, &ev);
    }
    if (rc < 0) {
        fprintf(stderr, "scenario: %s\n", err);
        CHECK(rc == 0);
    }
    if (r != NULL) {
        cc_evt_reader_close(r);
    }
    *errors = cc_session_close(s);
    FILE *f = fopen(path, "r");
    char *text = calloc(1, 1 << 16);
    if (f != NULL && text != NULL) {
        size_t n = fread(text, 1, (1 << 16) - 1, f);
        text[n] = '\0';
    }
    if (f != NULL) {
        fclose(f);
    }
    unlink(path);
    return text;
}

static const char *leak_scn =
    "host_stack id=a1 frame=\"main (leak.cu:9)\"\n"
    "alloc mem_kind=device address=a size=4000 callsite=a1\n"
    "alloc mem_kind=device address=b size=64\n"
    "alloc mem_kind=module_global address=g size=64\n"
    "alloc mem_kind=pinned address=h size=64\n"
    "free mem_kind=device address=b\n"
    "process_exit reason=normal code=0\n";

int main(void)
{
    /* registered */
    CHECK(cc_tool_find("memcheck") != NULL);
    uint64_t errors = 0;
    char *t = replay(leak_scn, "leak-check=full\n", &errors);
    CHECK(t != NULL);
    if (t != NULL) {
        CHECK(strstr(t, "\"kind\":\"leak\"") != NULL);
        CHECK(strstr(t, "Leaked 4000 bytes") != NULL);
        CHECK(strstr(t, "leak.cu:9") != NULL);
        CHECK(strstr(t, "Leaked 64") == NULL); /* freed, module global, pinned: no leaks */
        CHECK(strstr(t, "4000 bytes leaked in 1 allocation") != NULL);
        CHECK_EQ_U64(errors, 1);
        free(t);
    }
    t = replay(leak_scn, "", &errors); /* no --leak-check: nothing */
    CHECK(t != NULL && strstr(t, "\"kind\":\"leak\"") == NULL);
    CHECK_EQ_U64(errors, 0);
    free(t);

    /* The runtime's own allocation made before its context is announced is no leak; two
     * leaks from different allocation sites stay two findings. */
    const char *ctx_scn =
        "host_stack id=a1 frame=\"main (two.cu:5)\"\n"
        "host_stack id=a2 frame=\"main (two.cu:6)\"\n"
        "alloc context=c1 mem_kind=device address=rt size=512\n"
        "context_create context=c1 device=0\n"
        "alloc context=c1 mem_kind=device address=x size=256 callsite=a1\n"
        "alloc context=c1 mem_kind=device address=y size=4000 callsite=a2\n"
        "process_exit reason=normal code=0\n";
    t = replay(ctx_scn, "leak-check=full\n", &errors);
    CHECK(t != NULL);
    if (t != NULL) {
        CHECK(strstr(t, "Leaked 512") == NULL);
        CHECK(strstr(t, "Leaked 256") != NULL && strstr(t, "Leaked 4000") != NULL);
        CHECK_EQ_U64(errors, 2);
        free(t);
    }

    /* A crash does not make everything a leak. */
    const char *crash = "alloc mem_kind=device address=a size=4000\n"
                        "process_exit reason=signal code=11\n";
    t = replay(crash, "leak-check=full\n", &errors);
    CHECK(t != NULL && strstr(t, "\"kind\":\"leak\"") == NULL);
    free(t);

    /* The same violation from two launches folds into one finding with the counts added. */
    const char *twice =
        "alloc mem_kind=device address=c size=4000\n"
        "launch name=k grid=4 block=256 stream=legacy launch_id=1 flags=0x4\n"
        "device_access_error launch_id=1 kernel=k pc=0x70 file=k.cu line=13 block=3,0,0 "
        "thread=232,0,0 address=c+4000 size=4 flags=0x2 space=1 violation=1 count=24\n"
        "launch name=k grid=4 block=256 stream=legacy launch_id=2 flags=0x4\n"
        "device_access_error launch_id=2 kernel=k pc=0x70 file=k.cu line=13 block=3,0,0 "
        "thread=232,0,0 address=c+4000 size=4 flags=0x2 space=1 violation=1 count=24\n"
        "process_exit reason=normal code=0\n";
    t = replay(twice, "mode=full\n", &errors);
    CHECK(t != NULL);
    if (t != NULL) {
        CHECK_EQ_U64(errors, 1);
        CHECK(strstr(t, "invalid-global-write") != NULL);
        CHECK(strstr(t, "full mode") != NULL);
        CHECK(strstr(t, "launches instrumented 2/2") != NULL);
        free(t);
    }

    /* Bad option values are refused with a message. */
    CHECK(replay(leak_scn, "mode=sometimes\n", &errors) == NULL);
    CHECK(replay(leak_scn, "checks-per-kernel=0\n", &errors) == NULL);
    CHECK(replay(leak_scn, "on-error=maybe\n", &errors) == NULL);
    CHECK(replay(leak_scn, "launch-count=-3\n", &errors) == NULL);
    TEST_MAIN_END();
}
