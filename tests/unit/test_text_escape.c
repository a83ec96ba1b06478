/* Terminal-safe text (core/text_escape.h) and the text report that uses it: control bytes, C1
 * controls (raw and UTF-8), bidirectional overrides and invalid UTF-8 come out as \xHH, while
 * printable ASCII and valid UTF-8 (a kernel named in Japanese) pass unchanged; the buffer form
 * truncates without cutting an escape. A finding whose kernel, file, message, host frames,
 * related place and kind carry escape sequences prints without a single raw control byte, and
 * its clean twin prints exactly as before; so do the reporter's notes and repeated findings. */
#include "check.h"
#include "core/report.h"
#include "core/text_escape.h"

#include <stdlib.h>

static char *escaped(const char *s)
{
    static char buf[512];
    cc_text_escape(buf, sizeof buf, s);
    return buf;
}

static char *fputs_of(const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    cc_text_fputs(s, m);
    fclose(m);
    return buf;
}

static void test_escape(void)
{
    CHECK_STR(escaped("vecadd(float*, int) in a\\b.cu"), "vecadd(float*, int) in a\\b.cu");
    CHECK_STR(escaped("k\x1b[2J\x1b]0;title\x07"), "k\\x1b[2J\\x1b]0;title\\x07");
    CHECK_STR(escaped("a\nb\rc\td\x7f"), "a\\x0ab\\x0dc\\x09d\\x7f");
    CHECK_STR(escaped("\xe3\x82\xab\xe3\x83\xbc\xe3\x83\x8d\xe3\x83\xab"),
              "\xe3\x82\xab\xe3\x83\xbc\xe3\x83\x8d\xe3\x83\xab"); /* katakana "kaaneru" */
    CHECK_STR(escaped("\xc3\xa9t\xc3\xa9 \xf0\x9f\x94\xa5"), "\xc3\xa9t\xc3\xa9 \xf0\x9f\x94\xa5");
    CHECK_STR(escaped("csi\x9b" "31m"), "csi\\x9b31m");             /* 8-bit CSI, bare */
    CHECK_STR(escaped("csi\xc2\x9b" "31m"), "csi\\xc2\\x9b31m");    /* U+009B in UTF-8 */
    CHECK_STR(escaped("rtl\xe2\x80\xae" "cod"), "rtl\\xe2\\x80\\xaecod"); /* U+202E */
    CHECK_STR(escaped("iso\xe2\x81\xa6x"), "iso\\xe2\\x81\\xa6x");   /* U+2066 */
    CHECK_STR(escaped("bad\xc0\xaf|\xed\xa0\x80|\xf5\x80|\xe3\x82"),
              "bad\\xc0\\xaf|\\xed\\xa0\\x80|\\xf5\\x80|\\xe3\\x82"); /* overlong, surrogate, >max, cut */
    CHECK_STR(escaped(NULL), "");
    CHECK(cc_text_is_safe("plain (x) \xc3\xa9"));
    CHECK(!cc_text_is_safe("a\x1b"));
    CHECK(!cc_text_is_safe("\xc2\x85"));

    /* The FILE form writes the same text. */
    char *t = fputs_of("k\x1b[2J \xc3\xa9 \x9b");
    CHECK_STR(t, "k\\x1b[2J \xc3\xa9 \\x9b");
    free(t);

    /* Truncation: never half an escape, always terminated, the full length returned. */
    char small[8];
    CHECK_EQ_U64(cc_text_escape(small, sizeof small, "ab\x1b\x1b"), 10);
    CHECK_STR(small, "ab\\x1b");
    CHECK_EQ_U64(cc_text_escape(small, sizeof small, "abcdefghij"), 10);
    CHECK_STR(small, "abcdefg");
    CHECK_EQ_U64(cc_text_escape(small, 6, "abcd\xc3\xa9"), 6);
    CHECK_STR(small, "abcd"); /* the two-byte character does not fit whole */
}

static char *text_of(const cc_finding *f)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    cc_write_finding_text(m, f);
    fclose(m);
    return buf;
}

/* 1 if every byte is printable, a newline, or part of valid UTF-8 (no terminal control). */
static int terminal_safe(const char *t)
{
    const char *line = t;
    while (line && *line) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) : strlen(line);
        char *copy = strndup(line, n);
        int ok = copy && cc_text_is_safe(copy);
        free(copy);
        if (!ok) return 0;
        line = nl ? nl + 1 : NULL;
    }
    return 1;
}

static cc_finding finding(const char *kernel, const char *file, const char *message,
                          const char *frame, const char *role, const char *kind)
{
    static cc_stack_frame fr[1];
    static cc_related rel[1];
    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "memcheck";
    f.kind = kind;
    f.severity = CC_SEV_ERROR;
    f.message = message;
    f.has_device = 1;
    f.device.valid = CC_DLOC_KERNEL | CC_DLOC_PC | CC_DLOC_LINE | CC_DLOC_THREAD;
    f.device.kernel = kernel;
    f.device.file = file;
    f.device.line = 7;
    f.device.pc = 0x10;
    fr[0].pc = 0x400000;
    fr[0].text = frame;
    f.frames = fr;
    f.nframes = 1;
    memset(rel, 0, sizeof rel);
    rel[0].role = role;
    rel[0].message = message;
    f.related = rel;
    f.nrelated = 1;
    return f;
}

static void test_report_text(void)
{
    cc_finding f = finding("evil\x1b]0;pwned\x07kernel", "\x1b[31mk.cu", "boom\x1b[2J\x9b" "1m",
                           "main\x1b[A (x.cu:3)", "allocation\x1b[K", "leak\x1b");
    char *t = text_of(&f);
    CHECK(terminal_safe(t));
    CHECK(strstr(t, "========= boom\\x1b[2J\\x9b1m [leak\\x1b]\n") != NULL);
    CHECK(strstr(t, "=========     at evil\\x1b]0;pwned\\x07kernel+0x10 in \\x1b[31mk.cu:7\n"));
    CHECK(strstr(t, "=========     Host frame: main\\x1b[A (x.cu:3)\n") != NULL);
    CHECK(strstr(t, "=========     Allocation\\x1b[K: boom\\x1b[2J\\x9b1m\n") != NULL);
    free(t);

    /* The clean twin is printed unchanged. */
    f = finding("vecadd(float*)", "vecadd.cu", "Leaked 16 bytes", "main (vecadd.cu:3)",
                "allocation", "leak");
    t = text_of(&f);
    CHECK_STR(t, "========= Leaked 16 bytes [leak]\n"
                 "=========     at vecadd(float*)+0x10 in vecadd.cu:7\n"
                 "=========     by thread (0,0,0) in block (0,0,0)\n"
                 "=========     Host frame: main (vecadd.cu:3)\n"
                 "=========     Allocation: Leaked 16 bytes\n"
                 "=========\n");
    free(t);
}

/* The live reporter: notes (which may name kernels) and the "Repeated findings" lines. */
static void test_reporter_text(void)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    cc_report_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.text_out = m;
    cfg.tool = "memcheck";
    char err[256];
    cc_reporter *r = cc_reporter_open(&cfg, err, sizeof err);
    CHECK(r != NULL);
    if (!r) return;
    cc_finding f = finding("evil\x1b[2J", "k.cu", "Leaked\x1b[8m 16 bytes", "main (x.cu:3)",
                           "allocation", "leak");
    f.nrelated = 0;
    cc_reporter_add(r, &f);
    cc_reporter_add(r, &f);
    cc_reporter_note(r, "streamcheck: kernel evil\x1b]0;pwned\x07 fell back");
    cc_reporter_close(r);
    fclose(m);
    CHECK(terminal_safe(buf));
    CHECK(strstr(buf, "========= streamcheck: kernel evil\\x1b]0;pwned\\x07 fell back\n"));
    CHECK(strstr(buf, "2x Leaked\\x1b[8m 16 bytes at evil\\x1b[2J+0x10 in k.cu:7 [leak]\n"));
    free(buf);
}

int main(void)
{
    test_escape();
    test_report_text();
    test_reporter_text();
    TEST_MAIN_END();
}
