/* Files nobody else can redirect (core/owned_file.h) and runs that never mix (report sections
 * by run id). The opener: a new file is 0600 and close-on-exec; an own file is appended to or
 * replaced; a symbolic link (dangling too), a file with other hard links, a directory, a FIFO,
 * a device and another user's file (when the test runs as root) are taken, and the target is
 * untouched; a name the user gave follows a link only in a directory others cannot change and
 * writes a device or a read pipe as is; the check before a run agrees with the open. The writers
 * built on it (report, .cuevt recording, profile output) refuse a planted link. The loader reads
 * only the sections of the run it is given, and a damaged line hides nothing after it. */
#include "check.h"
#include "core/evtio.h"
#include "core/owned_file.h"
#include "core/report.h"
#include "tools/profile/profile.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/cc_owned_XXXXXX";
static const char *TARGET_TEXT = "precious\n";

static const char *path_of(const char *name) {
    static char buf[8][512];
    static int k;
    char *p = buf[k++ & 7];
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static int same_text(const char *path, const char *text) {
    char buf[256] = "";
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strcmp(buf, text) == 0;
}

/* A fresh target file and a link to it at name; returns the link's path. */
static const char *plant_link(const char *name) {
    const char *target = path_of("target");
    write_text(target, TARGET_TEXT);
    const char *link = path_of(name);
    unlink(link);
    CHECK(symlink(target, link) == 0);
    return link;
}

static void expect_taken(const char *path, unsigned flags, const char *by) {
    char err[256] = "";
    int fd = cc_owned_file_open(path, flags, err, sizeof err);
    if (fd >= 0) close(fd);
    CHECK(fd < 0);
    if (!strstr(err, "the name is taken by") || !strstr(err, by))
        fprintf(stderr, "%s: err '%s', expected taken by %s\n", path, err, by);
    CHECK(strstr(err, "the name is taken by") != NULL);
    CHECK(strstr(err, by) != NULL);
    err[0] = '\0';
    CHECK(cc_owned_file_check(path, flags, err, sizeof err) == -1);
    CHECK(strstr(err, by) != NULL);
}

static void test_create_and_reuse(void) {
    const char *p = path_of("new.jsonl");
    char err[256] = "";
    CHECK(cc_owned_file_check(p, CC_OWNED_APPEND, err, sizeof err) == 0);
    int fd = cc_owned_file_open(p, CC_OWNED_APPEND, err, sizeof err);
    CHECK(fd >= 0);
    if (fd < 0) return;
    struct stat st;
    CHECK(fstat(fd, &st) == 0 && (st.st_mode & 07777) == 0600);
    CHECK((fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
    CHECK((fcntl(fd, F_GETFL) & O_APPEND) != 0);
    CHECK(write(fd, "one\n", 4) == 4);
    close(fd);
    /* an own file: appended to, or replaced */
    fd = cc_owned_file_open(p, CC_OWNED_APPEND, err, sizeof err);
    CHECK(fd >= 0 && write(fd, "two\n", 4) == 4);
    CHECK(fd >= 0 && (fcntl(fd, F_GETFL) & O_NONBLOCK) == 0);
    if (fd >= 0) close(fd);
    CHECK(same_text(p, "one\ntwo\n"));
    fd = cc_owned_file_open(p, 0, err, sizeof err);
    CHECK(fd >= 0 && write(fd, "new\n", 4) == 4);
    if (fd >= 0) close(fd);
    CHECK(same_text(p, "new\n"));
    unlink(p);
    /* a name in the current directory, and one that names a directory */
    CHECK(cc_owned_file_open("", 0, err, sizeof err) == -1);
    CHECK(cc_owned_file_open(path_of("nodir/x"), 0, err, sizeof err) == -1);
    CHECK(strstr(err, "No such file") != NULL);
}

static void test_taken(void) {
    for (unsigned flags = 0; flags <= CC_OWNED_APPEND; flags++) {
        expect_taken(plant_link("link"), flags, "symbolic link");
        CHECK(same_text(path_of("target"), TARGET_TEXT));
    }
    /* a dangling link: nothing is created where it points */
    const char *dangling = path_of("dangling");
    unlink(dangling);
    CHECK(symlink(path_of("created-through-link"), dangling) == 0);
    expect_taken(dangling, 0, "symbolic link");
    CHECK(access(path_of("created-through-link"), F_OK) != 0);
    /* a hard link to a file of the user's */
    write_text(path_of("target"), TARGET_TEXT);
    unlink(path_of("hard"));
    CHECK(link(path_of("target"), path_of("hard")) == 0);
    expect_taken(path_of("hard"), 0, "other hard links");
    CHECK(same_text(path_of("target"), TARGET_TEXT));
    unlink(path_of("hard"));
    /* a directory, a FIFO, a device */
    mkdir(path_of("adir"), 0700);
    expect_taken(path_of("adir"), 0, "directory");
    CHECK(mkfifo(path_of("fifo"), 0600) == 0);
    expect_taken(path_of("fifo"), CC_OWNED_APPEND, "not a regular file");
    expect_taken("/dev/null", 0, "not a regular file");
    /* another user's file (only root can make one here) */
    if (geteuid() == 0) {
        write_text(path_of("theirs"), TARGET_TEXT);
        CHECK(chown(path_of("theirs"), 65534, 65534) == 0);
        expect_taken(path_of("theirs"), CC_OWNED_APPEND, "another user");
        CHECK(same_text(path_of("theirs"), TARGET_TEXT));
    }
}

static void test_user_named(void) {
    char err[256] = "";
    /* a link in a directory only the user can change (the test's 0700 directory) is followed */
    const char *link = plant_link("mylink");
    CHECK(cc_owned_file_check(link, CC_OWNED_USER_NAMED, err, sizeof err) == 0);
    int fd = cc_owned_file_open(link, CC_OWNED_USER_NAMED, err, sizeof err);
    CHECK(fd >= 0 && write(fd, "out\n", 4) == 4);
    if (fd >= 0) close(fd);
    CHECK(same_text(path_of("target"), "out\n"));
    /* ... and refused in one others can write to */
    mkdir(path_of("shared"), 0777);
    chmod(path_of("shared"), 01777);
    write_text(path_of("target"), TARGET_TEXT);
    CHECK(symlink(path_of("target"), path_of("shared/out")) == 0);
    expect_taken(path_of("shared/out"), CC_OWNED_USER_NAMED, "symbolic link");
    CHECK(same_text(path_of("target"), TARGET_TEXT));
    /* a device is written as is; a FIFO nobody reads is said, one that is read is written */
    fd = cc_owned_file_open("/dev/null", CC_OWNED_USER_NAMED, err, sizeof err);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
    fd = cc_owned_file_open(path_of("fifo"), CC_OWNED_USER_NAMED, err, sizeof err);
    CHECK(fd < 0 && strstr(err, "pipe that nobody reads") != NULL);
    if (fd >= 0) close(fd);
    int rd = open(path_of("fifo"), O_RDONLY | O_NONBLOCK);
    fd = cc_owned_file_open(path_of("fifo"), CC_OWNED_USER_NAMED, err, sizeof err);
    CHECK(fd >= 0 && write(fd, "x", 1) == 1);
    if (fd >= 0) close(fd);
    if (rd >= 0) close(rd);
}

/* The writers built on the opener: a planted link is refused, its target untouched. */
static void test_writers(void) {
    char err[512] = "";
    cc_report_config cfg = {plant_link("r.jsonl"), NULL, 0, NULL, "memcheck", "abc", NULL};
    CHECK(cc_reporter_open(&cfg, err, sizeof err) == NULL);
    CHECK(strstr(err, "taken") && strstr(err, "r.jsonl"));
    CHECK(same_text(path_of("target"), TARGET_TEXT));

    err[0] = '\0';
    const char *rec = plant_link("rec.cuevt");
    CHECK(cc_evt_writer_open(rec, err, sizeof err) == NULL);
    CHECK(strstr(err, "taken") && strstr(err, "rec.cuevt"));
    CHECK(same_text(path_of("target"), TARGET_TEXT));

    /* a link in a directory others can write to, for a profile trace, plain and gzip */
    for (int gz = 0; gz < 2; gz++) {
        write_text(path_of("target"), TARGET_TEXT);
        unlink(path_of("shared/trace.json"));
        CHECK(symlink(path_of("target"), path_of("shared/trace.json")) == 0);
        int used = 0;
        err[0] = '\0';
        CHECK(cc_prof_open_write(path_of("shared/trace.json"), gz, &used, err, sizeof err) == NULL);
        CHECK(strstr(err, "taken") != NULL);
        CHECK(same_text(path_of("target"), TARGET_TEXT));
    }
    /* a trace of the user's own, gzip when zlib is there, is created 0600 */
    int used = 0;
    FILE *f = cc_prof_open_write(path_of("trace.json.gz"), 1, &used, err, sizeof err);
    CHECK(f != NULL);
    if (f) {
        fputs("{}\n", f);
        CHECK(fclose(f) == 0);
    }
    struct stat st;
    CHECK(stat(path_of("trace.json.gz"), &st) == 0 && (st.st_mode & 07777) == 0600);
    FILE *r = cc_prof_open_read(path_of("trace.json.gz"), err, sizeof err);
    char line[16] = "";
    CHECK(r && fgets(line, sizeof line, r) && strcmp(line, "{}\n") == 0);
    if (r) fclose(r);

    /* the reporter's header names the run */
    cc_report_config mine = {path_of("mine.jsonl"), NULL, 0, NULL, "memcheck", "run-7", NULL};
    cc_reporter *rep = cc_reporter_open(&mine, err, sizeof err);
    CHECK(rep != NULL);
    cc_reporter_close(rep);
    FILE *h = fopen(path_of("mine.jsonl"), "r");
    char head[512] = "";
    CHECK(h && fgets(head, sizeof head, h) && strstr(head, "\"run\":\"run-7\""));
    if (h) fclose(h);
}

#define HDR(run) "{\"type\":\"header\",\"tool\":\"run\",\"run\":\"" run "\",\"pid\":1}\n"
#define FIND(id, kind, count)                                                                \
    "{\"type\":\"finding\",\"id\":" #id ",\"tool\":\"run\",\"kind\":\"" kind                 \
    "\",\"severity\":\"error\",\"count\":" #count "}\n"

static size_t count_of(const cc_finding_set *s, const char *kind) {
    size_t n = 0;
    for (size_t i = 0; i < cc_finding_set_size(s); i++)
        if (strcmp(cc_finding_set_get(s, i)->kind, kind) == 0) n += cc_finding_set_get(s, i)->count;
    return n;
}

static void test_runs(void) {
    const char *p = path_of("runs.jsonl");
    char err[512];
    size_t sections = 99;
    /* records before any header, another run, this run twice (an exec), an update per section */
    write_text(p, FIND(1, "orphan", 1) HDR("old") FIND(1, "bad", 1) FIND(2, "old", 4)
               "{\"type\":\"update\",\"id\":1,\"count\":9}\n" HDR("new") FIND(1, "bad", 1)
               HDR("new") FIND(1, "bad", 1) "{\"type\":\"update\",\"id\":1,\"count\":3}\n");
    cc_finding_set *s = cc_finding_set_new();
    CHECK(cc_finding_set_load_report(s, p, "new", &sections, err, sizeof err) == 0);
    CHECK_STR(err, "");
    CHECK_EQ_U64(sections, 2);
    CHECK_EQ_U64(count_of(s, "bad"), 1 + 3);
    CHECK_EQ_U64(count_of(s, "old") + count_of(s, "orphan"), 0);
    cc_finding_set_free(s);
    /* a run with no section, and every section without a run id */
    s = cc_finding_set_new();
    CHECK(cc_finding_set_load_report(s, p, "none", &sections, err, sizeof err) == 0);
    CHECK(sections == 0 && cc_finding_set_size(s) == 0);
    CHECK(cc_finding_set_load_report(s, p, NULL, &sections, err, sizeof err) == 0);
    CHECK_EQ_U64(sections, 3);
    CHECK_EQ_U64(count_of(s, "bad"), 9 + 1 + 3);
    cc_finding_set_free(s);

    /* a garbage first line, damage in another run (not reported), damage in this run: every
     * finding of this run is read, the first damaged line of this run is named, the rest counted */
    write_text(p, "garbage\n" HDR("old") "{\"type\":\n" HDR("new") FIND(1, "a", 1)
               "{\"type\":\"finding\",\"tool\":\"run\"}\n"
               "{\"type\":\"update\",\"id\":5,\"count\":2}\n" FIND(2, "b", 1));
    s = cc_finding_set_new();
    CHECK(cc_finding_set_load_report(s, p, "new", &sections, err, sizeof err) == 1);
    CHECK_EQ_U64(sections, 1);
    CHECK(count_of(s, "a") == 1 && count_of(s, "b") == 1);
    CHECK(strstr(err, "runs.jsonl:1:") != NULL);
    CHECK(strstr(err, "(and 2 more damaged lines)") != NULL);
    CHECK(strstr(err, ":3:") == NULL);
    cc_finding_set_free(s);

    /* a link is not read */
    const char *link = plant_link("linked.jsonl");
    write_text(path_of("target"), HDR("new") FIND(1, "secret", 1));
    s = cc_finding_set_new();
    CHECK(cc_finding_set_load_report(s, link, "new", &sections, err, sizeof err) == -1);
    CHECK(strstr(err, "symbolic link") != NULL && cc_finding_set_size(s) == 0);
    cc_finding_set_free(s);
}

int main(void) {
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_create_and_reuse();
    test_taken();
    test_user_named();
    test_writers();
    test_runs();
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", dir);
    TEST_MAIN_END();
}
