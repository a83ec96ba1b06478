/* Tests of the text writer: titles built from the access (space, access, size, byte/bytes),
 * message titles for other kinds, severity prefixes, device location lines (a kernel named as
 * shown, however long; cut before its pc and line where a line has a bound), host frames (with
 * and without text, long stacks cut), related places indented, and the "seen N times" line. */
#include "check.h"
#include "core/report.h"
#include "core/report_internal.h"

#include <stdlib.h>

static char *text_of(const cc_finding *f) {
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    cc_write_finding_text(m, f);
    fclose(m);
    return buf;
}

static cc_finding base(void) {
    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "memcheck";
    f.kind = "invalid-shared-read";
    f.severity = CC_SEV_ERROR;
    f.message = "Address 0x40 is out of bounds of the shared memory window";
    f.has_device = 1;
    f.device.valid = CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_THREAD | CC_DLOC_ADDRESS;
    f.device.kernel = "reduce(int*)";
    f.device.pc = 0x80;
    f.device.block[0] = 1;
    f.device.block[1] = 2;
    f.device.thread[2] = 5;
    f.device.address = 0x40;
    f.device.size = 1;
    f.device.access = CC_ACCESS_READ;
    f.device.space = CC_SPACE_SHARED;
    return f;
}

int main(void) {
    cc_finding f = base();
    char *t = text_of(&f);
    CHECK_STR(t,
              "========= Invalid __shared__ read of size 1 byte [invalid-shared-read]\n"
              "=========     at reduce(int*)+0x80\n"
              "=========     by thread (0,0,5) in block (1,2,0)\n"
              "=========     Address 0x40 is out of bounds of the shared memory window\n"
              "=========\n");
    free(t);

    /* no message: the address is still shown */
    f.message = NULL;
    f.device.size = 16;
    f.device.access = CC_ACCESS_ATOMIC;
    f.device.space = CC_SPACE_GENERIC;
    f.kind = "invalid-generic-atomic";
    t = text_of(&f);
    CHECK(strstr(t, "========= Invalid generic atomic of size 16 bytes [invalid-generic-atomic]\n"));
    CHECK(strstr(t, "=========     Address 0x40\n"));
    free(t);

    /* a race: the message is the title, with both sides */
    cc_stack_frame frames[30];
    for (int i = 0; i < 30; i++) {
        frames[i].pc = 0x1000u + (uint64_t)i;
        frames[i].text = i == 1 ? NULL : "train.py:42 in step";
    }
    cc_related rel[2];
    memset(rel, 0, sizeof rel);
    rel[0].role = "previous access";
    rel[0].message = "write by kernel fill on stream 0x7";
    rel[0].has_device = 1;
    rel[0].device.valid = CC_DLOC_KERNEL | CC_DLOC_LINE;
    rel[0].device.kernel = "fill(float*)";
    rel[0].device.file = "fill.cu";
    rel[0].device.line = 9;
    rel[0].nframes = 1;
    rel[0].frames = frames;
    rel[1].role = "sample";
    rel[1].has_device = 1;
    rel[1].device.valid = CC_DLOC_THREAD;
    rel[1].device.thread[0] = 9;
    rel[1].device.block[0] = 8;
    cc_finding r;
    memset(&r, 0, sizeof r);
    r.tool = "streamcheck";
    r.kind = "race";
    r.severity = CC_SEV_WARNING;
    r.message = "Read of 4096 bytes races with an earlier write on another stream";
    r.nframes = 30;
    r.frames = frames;
    r.nrelated = 2;
    r.related = rel;
    r.count = 3;
    t = text_of(&r);
    CHECK(strncmp(t, "========= Warning: Read of 4096 bytes races with an earlier write on another stream [race]\n", 90) == 0);
    CHECK(strstr(t, "=========     Host frame: train.py:42 in step\n"));
    CHECK(strstr(t, "=========     Host frame: 0x1001\n"));
    CHECK(strstr(t, "=========     ... 6 more host frames\n"));
    CHECK(strstr(t, "=========     Previous access: write by kernel fill on stream 0x7\n"
                    "=========         at fill(float*) in fill.cu:9\n"
                    "=========         Host frame: train.py:42 in step\n"));
    CHECK(strstr(t, "=========     (seen 3 times; threads (9,0,0) in block (8,0,0), ...)\n"));
    CHECK(!strstr(t, "Sample")); /* samples are not printed as related places */
    free(t);

    /* info severity, count without samples, no device */
    r.severity = CC_SEV_INFO;
    r.nrelated = 0;
    r.nframes = 0;
    r.count = 2;
    t = text_of(&r);
    CHECK(strstr(t, "========= Note: Read of 4096"));
    CHECK(strstr(t, "=========     (seen 2 times)\n"));
    free(t);

    /* a file:line without kernel */
    cc_finding l;
    memset(&l, 0, sizeof l);
    l.tool = "x";
    l.kind = "k";
    l.severity = CC_SEV_ERROR;
    l.has_device = 1;
    l.device.valid = CC_DLOC_LINE;
    l.device.file = "a.cu";
    l.device.line = 3;
    t = text_of(&l);
    CHECK_STR(t, "========= k\n=========     at a.cu:3\n=========\n");
    free(t);

    /* a kernel named demangled, 5,000 characters long: the at line holds all of it, then the pc
     * and line; the mangled name is for machines, never in the text */
    char *longname = malloc(5001);
    memset(longname, 'q', 5000);
    memcpy(longname, "void big<", 9);
    memcpy(longname + 4990, ">(float*)", 10);
    cc_finding g = base();
    g.device.valid |= CC_DLOC_LINE;
    g.device.kernel = longname;
    g.device.kernel_mangled = "_Z3bigIqqqEvPf";
    g.device.file = "big.cu";
    g.device.line = 7;
    t = text_of(&g);
    char *at = strstr(t, "=========     at void big<");
    CHECK(at != NULL && strstr(at, ">(float*)+0x80 in big.cu:7\n") != NULL);
    CHECK(strstr(t, "_Z3big") == NULL);
    free(t);
    /* where a line has a bound, the name gives way: "...", then the pc and line */
    char where[64];
    CHECK_EQ_U64(cc_device_where(&g.device, NULL, 0), strlen(longname) + strlen("+0x80 in big.cu:7"));
    cc_device_where(&g.device, where, sizeof where);
    CHECK(strlen(where) == sizeof where - 1);
    CHECK(strncmp(where, "void big<qqq", 12) == 0);
    CHECK(strstr(where, "...+0x80 in big.cu:7") != NULL);
    /* a name with escapes is cut before an escape, never inside one */
    memcpy(longname + 20, "\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b", 12);
    cc_device_where(&g.device, where, sizeof where);
    CHECK(strstr(where, "...+0x80 in big.cu:7") != NULL);
    const char *cut = strstr(where, "...");
    CHECK(cut != NULL && cut - where >= 3 && cut[-1] != '\\' &&
          !(cut[-2] == '\\' && cut[-1] == 'x') && !(cut[-3] == '\\' && cut[-2] == 'x'));
    CHECK(strstr(where, "\x1b") == NULL); /* escaped, never raw */
    free(longname);
    TEST_MAIN_END();
}
