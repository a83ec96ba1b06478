/* Tests of the JSON Lines writer and reader: a writer -> loader round trip compared field by
 * field (weird strings included), update lines, notes, unknown record types, several process
 * sections in one file, a truncated last line (tolerated with a warning) and damaged lines
 * (said with path:line, skipped: every other record is kept). */
#include "check.h"
#include "core/json.h"
#include "core/report.h"

#include <stdlib.h>
#include <unistd.h>

static char dir[] = "/tmp/cc_jsonl_XXXXXX";

static int same_str(const char *a, const char *b) {
    if (!a || !b) return a == b;
    return strcmp(a, b) == 0;
}

static void check_device(const cc_device_loc *a, const cc_device_loc *b) {
    CHECK_EQ_U64(a->valid, b->valid);
    if (a->valid & CC_DLOC_KERNEL) {
        CHECK(same_str(a->kernel, b->kernel));
        CHECK(same_str(a->kernel_mangled, b->kernel_mangled));
        CHECK_EQ_U64(a->launch_id, b->launch_id);
        CHECK_EQ_U64(a->stream, b->stream);
    }
    if (a->valid & CC_DLOC_PC) CHECK_EQ_U64(a->pc, b->pc);
    if (a->valid & CC_DLOC_LINE) {
        CHECK(same_str(a->file, b->file));
        CHECK_EQ_U64(a->line, b->line);
    }
    if (a->valid & CC_DLOC_THREAD) {
        CHECK(memcmp(a->block, b->block, sizeof a->block) == 0);
        CHECK(memcmp(a->thread, b->thread, sizeof a->thread) == 0);
    }
    if (a->valid & CC_DLOC_ADDRESS) {
        CHECK_EQ_U64(a->address, b->address);
        CHECK_EQ_U64(a->size, b->size);
        CHECK_EQ_U64(a->access, b->access);
        CHECK_EQ_U64(a->space, b->space);
    }
}

static void check_frames(const cc_stack_frame *a, uint32_t na, const cc_stack_frame *b, uint32_t nb) {
    CHECK_EQ_U64(na, nb);
    for (uint32_t i = 0; i < na && i < nb; i++) {
        CHECK_EQ_U64(a[i].pc, b[i].pc);
        CHECK(same_str(a[i].text, b[i].text));
    }
}

static void check_finding(const cc_finding *a, const cc_finding *b) {
    CHECK(a && b);
    if (!a || !b) return;
    CHECK_STR(a->tool, b->tool);
    CHECK_STR(a->kind, b->kind);
    CHECK_EQ_U64(a->severity, b->severity);
    CHECK(same_str(a->message, b->message));
    CHECK_EQ_U64(a->count ? a->count : 1, b->count);
    CHECK_EQ_U64(a->has_device, b->has_device);
    if (a->has_device) check_device(&a->device, &b->device);
    check_frames(a->frames, a->nframes, b->frames, b->nframes);
    CHECK_EQ_U64(a->nrelated, b->nrelated);
    for (uint32_t i = 0; i < a->nrelated && i < b->nrelated; i++) {
        const cc_related *x = &a->related[i], *y = &b->related[i];
        CHECK(same_str(x->role, y->role));
        CHECK(same_str(x->message, y->message));
        CHECK_EQ_U64(x->has_device, y->has_device);
        if (x->has_device) check_device(&x->device, &y->device);
        check_frames(x->frames, x->nframes, y->frames, y->nframes);
    }
}

static cc_stack_frame frames[] = {{0x401000, "main (vecadd.cu:40)"},
                                  {0xffffffffffffff00ull, "weird \"frame\"\twith\\tabs\x01"},
                                  {0x10, NULL}};
static cc_stack_frame alloc_frames[] = {{0x401100, "main (vecadd.cu:31)"}};

static cc_finding full_finding(void) {
    static cc_related rel[3];
    memset(rel, 0, sizeof rel);
    rel[0].role = "allocation";
    rel[0].message = "1024 bytes at 0x7f0000000000";
    rel[0].nframes = 1;
    rel[0].frames = alloc_frames;
    rel[1].role = "previous access";
    rel[1].has_device = 1;
    rel[1].device.valid = CC_DLOC_KERNEL | CC_DLOC_THREAD | CC_DLOC_ADDRESS;
    rel[1].device.kernel = "writer_kernel";
    rel[1].device.launch_id = 7;
    rel[1].device.stream = 0x55550000aaaaull;
    rel[1].device.block[2] = 9;
    rel[1].device.thread[1] = 31;
    rel[1].device.address = 0xfffffffffffffff0ull;
    rel[1].device.size = 16;
    rel[1].device.access = CC_ACCESS_ATOMIC;
    rel[1].device.space = CC_SPACE_SHARED;
    rel[2].role = "sample";
    rel[2].has_device = 1;
    rel[2].device.valid = CC_DLOC_THREAD;
    rel[2].device.block[0] = 4;
    rel[2].device.thread[0] = 300;

    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "memcheck";
    f.kind = "invalid-global-write";
    f.severity = CC_SEV_ERROR;
    f.message = "quote \" backslash \\ newline \n ctrl \x1f utf8 caf\xc3\xa9 \xe2\x82\xac";
    f.has_device = 1;
    f.device.valid = CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_LINE | CC_DLOC_THREAD | CC_DLOC_ADDRESS;
    f.device.kernel = "void add<float>(float const*, float*, int)";
    f.device.kernel_mangled = "_Z3addIfEvPKT_PS0_i";
    f.device.launch_id = 18446744073709551615ull;
    f.device.stream = 2;
    f.device.pc = 0x1f0;
    f.device.file = "/home/user/my dir/vecadd.cu";
    f.device.line = 4294967295u;
    f.device.block[0] = 3;
    f.device.block[1] = 2;
    f.device.block[2] = 1;
    f.device.thread[0] = 256;
    f.device.address = 0x7f0000000410ull;
    f.device.size = 4;
    f.device.access = CC_ACCESS_WRITE;
    f.device.space = CC_SPACE_GLOBAL;
    f.nframes = 3;
    f.frames = frames;
    f.nrelated = 3;
    f.related = rel;
    f.count = 12;
    return f;
}

static char *path_of(const char *name) {
    static char buf[4][256];
    static int k;
    char *p = buf[k++ & 3];
    snprintf(p, 256, "%s/%s", dir, name);
    return p;
}

static void test_round_trip(void) {
    const char *path = path_of("roundtrip.jsonl");
    FILE *f = fopen(path, "w");
    cc_finding a = full_finding();
    cc_finding b;
    memset(&b, 0, sizeof b);
    b.tool = "run";
    b.kind = "api-error";
    b.severity = CC_SEV_INFO;
    cc_finding c = a;
    c.severity = CC_SEV_WARNING;
    c.message = NULL;
    c.device.kernel = NULL;
    c.device.file = NULL;
    c.device.valid = CC_DLOC_KERNEL | CC_DLOC_LINE;
    c.nrelated = 0;
    c.related = NULL;
    c.count = 0; /* read as 1 */
    fputs("{\"type\":\"header\",\"tool\":\"memcheck\",\"pid\":1,\"version\":\"0.1.0\"}\n", f);
    cc_write_finding_jsonl(f, &a);
    cc_write_finding_jsonl(f, &b);
    cc_write_finding_jsonl(f, &c);
    fputs("{\"type\":\"future-record\",\"whatever\":[1,{\"x\":null}]}\n\n", f);
    fputs("{\"type\":\"note\",\"tool\":\"memcheck\",\"text\":\"checked 1 of 1 kernels\"}\n", f);
    fputs("{\"type\":\"summary\",\"distinct\":3}\n", f);
    fclose(f);

    cc_finding_set *s = cc_finding_set_new();
    char err[256] = "";
    CHECK(cc_finding_set_load_jsonl(s, path, err, sizeof err) == 0);
    CHECK_STR(err, "");
    CHECK_EQ_U64(cc_finding_set_size(s), 3);
    check_finding(&a, cc_finding_set_get(s, 0));
    check_finding(&b, cc_finding_set_get(s, 1));
    check_finding(&c, cc_finding_set_get(s, 2));
    CHECK(cc_finding_set_get(s, 3) == NULL);
    CHECK_EQ_U64(cc_finding_set_note_count(s), 1);
    CHECK_STR(cc_finding_set_note(s, 0), "checked 1 of 1 kernels");

    /* writing the loaded findings again gives the same bytes */
    char *one = NULL, *two = NULL;
    size_t l1 = 0, l2 = 0;
    FILE *m1 = open_memstream(&one, &l1), *m2 = open_memstream(&two, &l2);
    cc_write_finding_jsonl(m1, &a);
    cc_write_finding_jsonl(m2, cc_finding_set_get(s, 0));
    fclose(m1);
    fclose(m2);
    CHECK_STR(one, two);
    /* the kernel as shown, then as the binary names it; a kernel without a mangled form has no
     * kernel_mangled (the related access's writer_kernel) */
    CHECK(strstr(one, "\"kernel\":\"void add<float>(float const*, float*, int)\","
                      "\"kernel_mangled\":\"_Z3addIfEvPKT_PS0_i\"") != NULL);
    CHECK(strstr(one, "\"kernel\":\"writer_kernel\",\"launch_id\"") != NULL);
    free(one);
    free(two);

    /* a second file adds to the same set */
    CHECK(cc_finding_set_load_jsonl(s, path, err, sizeof err) == 0);
    CHECK_EQ_U64(cc_finding_set_size(s), 6);
    cc_finding_set_free(s);
    unlink(path);
}

static void test_invalid_utf8(void) {
    const char *path = path_of("utf8.jsonl");
    FILE *f = fopen(path, "w");
    cc_finding a;
    memset(&a, 0, sizeof a);
    a.tool = "memcheck";
    a.kind = "race";
    a.message = "bad \xff\xfe bytes \xc3";
    cc_write_finding_jsonl(f, &a);
    fclose(f);
    cc_finding_set *s = cc_finding_set_new();
    char err[256];
    CHECK(cc_finding_set_load_jsonl(s, path, err, sizeof err) == 0);
    CHECK(cc_finding_set_size(s) == 1 &&
          strcmp(cc_finding_set_get(s, 0)->message,
                 "bad \xef\xbf\xbd\xef\xbf\xbd bytes \xef\xbf\xbd") == 0);
    cc_finding_set_free(s);
    unlink(path);
}

/* Live reporter output: the update lines set counts and samples, sections restart ids. */
static void test_updates_and_sections(void) {
    const char *path = path_of("sections.jsonl");
    for (int proc = 0; proc < 2; proc++) { /* e.g. a process that exec'd: same pid, same file */
        cc_report_config cfg = {path, NULL, 0, NULL, "memcheck", NULL, NULL};
        cc_reporter *r = cc_reporter_open(&cfg, NULL, 0);
        CHECK(r != NULL);
        if (!r) return;
        cc_finding f = full_finding();
        f.count = 0;
        f.nrelated = 2; /* no samples of its own */
        f.device.line = 10 + (uint32_t)proc;
        for (uint32_t i = 0; i < 3 + (uint32_t)proc; i++) {
            f.device.thread[0] = i;
            cc_reporter_add(r, &f);
        }
        cc_finding g = f;
        g.device.pc = 0x300;
        cc_reporter_add(r, &g);
        cc_reporter_close(r);
    }
    cc_finding_set *s = cc_finding_set_new();
    char err[256];
    CHECK(cc_finding_set_load_jsonl(s, path, err, sizeof err) == 0);
    CHECK_EQ_U64(cc_finding_set_size(s), 4);
    const cc_finding *p0 = cc_finding_set_get(s, 0), *p1 = cc_finding_set_get(s, 2);
    CHECK(p0 && p0->count == 3 && p0->device.line == 10);
    CHECK(p1 && p1->count == 4 && p1->device.line == 11);
    CHECK(cc_finding_set_get(s, 1)->count == 1 && cc_finding_set_get(s, 3)->count == 1);
    /* samples come back as related entries with role "sample", after the other related */
    if (p1) {
        CHECK_EQ_U64(p1->nrelated, 2 + 4);
        CHECK_STR(p1->related[0].role, "allocation");
        for (uint32_t i = 0; i < 4 && i + 2 < p1->nrelated; i++) {
            CHECK_STR(p1->related[2 + i].role, "sample");
            CHECK_EQ_U64(p1->related[2 + i].device.thread[0], i);
            CHECK_EQ_U64(p1->related[2 + i].device.block[0], 3);
        }
    }
    cc_finding_set_free(s);
    unlink(path);
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
}

#define GOOD1 "{\"type\":\"finding\",\"id\":1,\"tool\":\"memcheck\",\"kind\":\"race\",\"severity\":\"error\",\"count\":1}\n"
#define GOOD2 "{\"type\":\"finding\",\"id\":2,\"tool\":\"memcheck\",\"kind\":\"leak\",\"severity\":\"warning\",\"count\":2}\n"

static void test_damaged(void) {
    const char *path = path_of("damaged.jsonl");
    cc_finding_set *s = cc_finding_set_new();
    char err[256] = "";

    /* crash mid-write: last line cut short and without newline -> success with a warning */
    write_file(path, GOOD1 GOOD2 "{\"type\":\"update\",\"id\":1,\"cou");
    CHECK(cc_finding_set_load_jsonl(s, path, err, sizeof err) == 0);
    CHECK_EQ_U64(cc_finding_set_size(s), 2);
    CHECK(strstr(err, "warning") && strstr(err, ":3:") && strstr(err, "incomplete"));
    CHECK(cc_finding_set_get(s, 0)->count == 1);
    cc_finding_set_free(s);

    /* an update after the findings applies */
    s = cc_finding_set_new();
    write_file(path, GOOD1 GOOD2 "{\"type\":\"update\",\"id\":1,\"count\":40}\n");
    CHECK(cc_finding_set_load_jsonl(s, path, err, sizeof err) == 0);
    CHECK(cc_finding_set_size(s) == 2 && cc_finding_set_get(s, 0)->count == 40);
    cc_finding_set_free(s);

    struct {
        const char *text;
        const char *where;
        size_t kept;
    } bad[] = {
        {GOOD1 "not json at all\n" GOOD2, ":2:", 2}, /* damage hides nothing after it */
        {GOOD1 "{\"type\":\"finding\",\"tool\":\"x\"}\n", ":2:", 1},              /* no kind */
        {GOOD1 "{\"type\":\"finding\",\"tool\":\"x\",\"kind\":\"k\",\"count\":-1}\n", ":2:", 1},
        {GOOD1 "{\"type\":\"finding\",\"tool\":\"x\",\"kind\":\"k\",\"device\":{\"line\":4294967296}}\n", ":2:", 1},
        {GOOD1 "{\"type\":\"finding\",\"tool\":\"x\",\"kind\":\"k\",\"device\":{\"block\":[1,2]}}\n", ":2:", 1},
        {GOOD1 "{\"type\":\"finding\",\"tool\":\"x\",\"kind\":\"k\",\"frames\":{}}\n", ":2:", 1},
        {GOOD1 "{\"type\":\"finding\",\"tool\":\"x\",\"kind\":\"k\",\"related\":[1]}\n", ":2:", 1},
        {GOOD1 "{\"type\":\"update\",\"id\":9,\"count\":2}\n", ":2:", 1},  /* unknown id */
        {GOOD1 "{\"type\":\"update\",\"id\":1}\n", ":2:", 1},
        {GOOD1 "[1,2,3]\n", ":2:", 1},
        {GOOD1 "{\"no_type\":1}\n", ":2:", 1},
        {"{\"type\":\"header\"}\n" GOOD1 "{\"type\":\"header\"}\n{\"type\":\"update\",\"id\":1,\"count\":3}\n",
         ":4:", 1}, /* ids do not cross sections */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        write_file(path, bad[i].text);
        s = cc_finding_set_new();
        err[0] = '\0';
        int rc = cc_finding_set_load_jsonl(s, path, err, sizeof err);
        if (rc != 1 || !strstr(err, bad[i].where) || cc_finding_set_size(s) != bad[i].kept)
            fprintf(stderr, "bad case %zu: rc %d, err '%s', kept %zu\n", i, rc, err,
                    cc_finding_set_size(s));
        CHECK(rc == 1);
        CHECK(strstr(err, path) != NULL);
        CHECK(strstr(err, bad[i].where) != NULL);
        CHECK_EQ_U64(cc_finding_set_size(s), bad[i].kept);
        cc_finding_set_free(s);
    }

    /* a file with a NUL inside a line */
    FILE *f = fopen(path, "wb");
    fputs(GOOD1, f);
    fwrite("{\"type\":\0\"x\"}\n", 1, 14, f);
    fclose(f);
    s = cc_finding_set_new();
    CHECK(cc_finding_set_load_jsonl(s, path, err, sizeof err) == 1);
    CHECK_EQ_U64(cc_finding_set_size(s), 1);
    cc_finding_set_free(s);

    /* missing file; empty file */
    s = cc_finding_set_new();
    CHECK(cc_finding_set_load_jsonl(s, path_of("missing.jsonl"), err, sizeof err) == -1);
    write_file(path, "");
    CHECK(cc_finding_set_load_jsonl(s, path, err, sizeof err) == 0);
    CHECK_EQ_U64(cc_finding_set_size(s), 0);
    cc_finding_set_free(s);
    unlink(path);
}

int main(void) {
    CHECK(mkdtemp(dir) != NULL);
    test_round_trip();
    test_invalid_utf8();
    test_updates_and_sections();
    test_damaged();
    rmdir(dir);
    TEST_MAIN_END();
}
