/* Tests of core/suppress: globs, rules matching and not matching on every key, several rules,
 * comments and blank-line separation, and bad files (unknown key, line without '=', empty key or
 * pattern, key given twice, NUL byte, missing file) rejected with their line number. */
#include "check.h"
#include "core/suppress.h"

#include <stdlib.h>
#include <unistd.h>

static void test_glob(void) {
    CHECK(cc_glob_match("abc", "abc"));
    CHECK(!cc_glob_match("abc", "abcd"));
    CHECK(!cc_glob_match("abcd", "abc"));
    CHECK(cc_glob_match("*", ""));
    CHECK(cc_glob_match("*", "anything/at all"));
    CHECK(cc_glob_match("a*c", "abbbc"));
    CHECK(cc_glob_match("a*c", "ac"));
    CHECK(!cc_glob_match("a*c", "abcd"));
    CHECK(cc_glob_match("*b*b*", "abab"));
    CHECK(!cc_glob_match("*b*b*", "ab"));
    CHECK(cc_glob_match("a?c", "abc"));
    CHECK(!cc_glob_match("a?c", "ac"));
    CHECK(cc_glob_match("operator[]*", "operator[](int)"));   /* no character classes */
    CHECK(cc_glob_match("a\\*c", "a*c"));
    CHECK(!cc_glob_match("a\\*c", "abc"));
    CHECK(cc_glob_match("a\\?", "a?"));
    CHECK(!cc_glob_match("a\\?", "ab"));
    CHECK(cc_glob_match("*.cu", "/src/dir/vecadd.cu"));
    CHECK(!cc_glob_match(NULL, "x"));
    /* pathological backtracking stays fast */
    char s[4096];
    memset(s, 'a', sizeof s - 1);
    s[sizeof s - 1] = '\0';
    CHECK(!cc_glob_match("*a*a*a*a*a*a*a*a*b", s));
}

static cc_stack_frame frames[] = {{0x10, "cudaLaunchKernel"}, {0x20, "main (vecadd.cu:40)"},
                                  {0x30, "train.py:42 in step"}};

static cc_finding make(void) {
    cc_finding f;
    memset(&f, 0, sizeof f);
    f.tool = "memcheck";
    f.kind = "invalid-global-write";
    f.severity = CC_SEV_ERROR;
    f.message = "Address 0x10 is 4 bytes after the nearest allocation";
    f.has_device = 1;
    f.device.valid = CC_DLOC_KERNEL | CC_DLOC_LINE | CC_DLOC_PC;
    f.device.kernel = "add(float const*, float*, int)";
    f.device.file = "/home/u/src/vecadd.cu";
    f.device.line = 12;
    f.nframes = 3;
    f.frames = frames;
    return f;
}

static int matches(const char *text, const cc_finding *f) {
    char err[256] = "";
    cc_suppressions *s = cc_suppressions_parse(text, "t", err, sizeof err);
    if (!s) {
        fprintf(stderr, "unexpected parse error: %s\n", err);
        return -1;
    }
    int m = cc_suppressions_match(s, f);
    cc_suppressions_free(s);
    return m;
}

static void test_matching(void) {
    cc_finding f = make();
    CHECK(matches("kind=invalid-global-write\n", &f) == 1);
    CHECK(matches("kind=invalid-global-read\n", &f) == 0);
    CHECK(matches("kind=invalid-*\nkernel=add(*\n", &f) == 1);
    CHECK(matches("kind=invalid-*\nkernel=mul*\n", &f) == 0);   /* every key must match */
    /* kernel= matches the name shown or the mangled name kept beside it */
    cc_finding tmpl = make();
    tmpl.device.kernel = "void scale<float, 256>(float*, int)";
    tmpl.device.kernel_mangled = "_Z5scaleIfLi256EEvPT_i";
    CHECK(matches("kernel=void scale<float, *>(*\n", &tmpl) == 1);
    CHECK(matches("kernel=_Z5scaleI*\n", &tmpl) == 1);
    CHECK(matches("kernel=_Z5mulI*\n", &tmpl) == 0);
    CHECK(matches("kernel=_Z*\n", &f) == 0); /* no mangled name: only the one shown */
    CHECK(matches("tool=memcheck\n", &f) == 1);
    CHECK(matches("tool=streamcheck\n", &f) == 0);
    CHECK(matches("file=vecadd.cu\n", &f) == 1);                 /* base name */
    CHECK(matches("file=*/src/vecadd.cu\n", &f) == 1);           /* full path */
    CHECK(matches("file=other.cu\n", &f) == 0);
    CHECK(matches("frame=*train.py:42*\n", &f) == 1);            /* any frame */
    CHECK(matches("frame=main *\nframe=cudaLaunch*\n", &f) == 1); /* each must match a frame */
    CHECK(matches("frame=main *\nframe=*nccl*\n", &f) == 0);
    CHECK(matches("message=*bytes after*\n", &f) == 1);
    CHECK(matches("message=*before*\n", &f) == 0);
    CHECK(matches("  kind = invalid-global-write  \r\n", &f) == 1); /* whitespace trimmed */
    CHECK(matches("# only a comment\n\n", &f) == 0);
    CHECK(matches("", &f) == 0);

    /* two rules: blank line separates them; a finding matching the second is suppressed */
    const char *two = "# first rule\nkind=race\nkernel=add*\n\n# second\nkind=invalid-*\nfile=vecadd.cu\n";
    CHECK(matches(two, &f) == 1);
    /* without the blank line it is one rule (kind given twice) -> error */
    char err[256] = "";
    CHECK(cc_suppressions_parse("kind=race\nkind=invalid-*\n", "t", err, sizeof err) == NULL);
    CHECK(strstr(err, "t:2:") != NULL);
    /* rules are independent: keys of one rule do not leak into the next */
    CHECK(matches("kernel=mul*\n\nkind=invalid-global-write\n", &f) == 1);
    cc_suppressions *s = cc_suppressions_parse(two, "t", err, sizeof err);
    CHECK(s && cc_suppressions_count(s) == 2);
    cc_suppressions_free(s);

    /* a rule with kernel/file keys does not match a finding without a device location */
    cc_finding api = make();
    api.has_device = 0;
    api.kind = "api-error";
    CHECK(matches("kernel=*\n", &api) == 0);
    CHECK(matches("file=*\n", &api) == 0);
    CHECK(matches("kind=api-error\n", &api) == 1);
    cc_finding noframes = make();
    noframes.nframes = 0;
    noframes.frames = NULL;
    CHECK(matches("frame=*\n", &noframes) == 0);
    CHECK(cc_suppressions_match(NULL, &f) == 0);
}

static void test_bad(void) {
    char err[256] = "";
    CHECK(cc_suppressions_parse("kind=race\n\njust words\n", "supp.txt", err, sizeof err) == NULL);
    CHECK(strstr(err, "supp.txt:3:") != NULL);
    err[0] = '\0';
    CHECK(cc_suppressions_parse("# c\ncolour=blue\n", "supp.txt", err, sizeof err) == NULL);
    CHECK(strstr(err, "supp.txt:2:") != NULL && strstr(err, "colour") != NULL);
    /* a key or a pattern left empty would silently match nothing */
    CHECK(cc_suppressions_parse("kind=race\n = x\n", "supp.txt", err, sizeof err) == NULL);
    CHECK(strstr(err, "supp.txt:2: no key before '='") != NULL);
    CHECK(cc_suppressions_parse("kind=race\nkernel=  \n", "supp.txt", err, sizeof err) == NULL);
    CHECK(strstr(err, "supp.txt:2: key 'kernel' has no pattern") != NULL);
    CHECK(cc_suppressions_parse("frame=\n", "supp.txt", err, sizeof err) == NULL);
    CHECK(strstr(err, "supp.txt:1: key 'frame' has no pattern") != NULL);

    char dir[] = "/tmp/cc_supp_XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char path[256];
    snprintf(path, sizeof path, "%s/s.supp", dir);
    FILE *fp = fopen(path, "w");
    fputs("# ok\nkind=race\n\nkind=x\nnot a rule\n", fp);
    fclose(fp);
    err[0] = '\0';
    CHECK(cc_suppressions_load(path, err, sizeof err) == NULL);
    char want[300];
    snprintf(want, sizeof want, "%s:5:", path);
    CHECK(strstr(err, want) != NULL);

    fp = fopen(path, "w");
    fputs("kind=race\n\nkind=invalid-*\nkernel=k\n", fp);
    fclose(fp);
    cc_suppressions *s = cc_suppressions_load(path, err, sizeof err);
    CHECK(s && cc_suppressions_count(s) == 2);
    cc_suppressions_free(s);

    fp = fopen(path, "wb");
    fwrite("kind=a\0b\n", 1, 9, fp);
    fclose(fp);
    CHECK(cc_suppressions_load(path, err, sizeof err) == NULL);
    unlink(path);
    err[0] = '\0';
    CHECK(cc_suppressions_load(path, err, sizeof err) == NULL); /* missing file */
    CHECK(strstr(err, path) != NULL);
    rmdir(dir);
}

int main(void) {
    test_glob();
    test_matching();
    test_bad();
    TEST_MAIN_END();
}
