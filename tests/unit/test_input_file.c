/* Input files (core/input_file.h) and the readers built on them: a regular file is mapped or read
 * whole; a FIFO without a writer, /dev/zero, a directory and a missing file are refused at once
 * with a one-line reason (an alarm fails the test should anything block); a file over the
 * caller's limit is refused. The event reader and the suppressions loader say the same. */
#include "check.h"
#include "core/evtio.h"
#include "core/input_file.h"
#include "core/suppress.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/cc_input_XXXXXX";
static char path_reg[128], path_fifo[128], path_empty[128];

static void setup(void)
{
    CHECK(mkdtemp(dir) != NULL);
    snprintf(path_reg, sizeof path_reg, "%s/a.txt", dir);
    snprintf(path_fifo, sizeof path_fifo, "%s/f.fifo", dir);
    snprintf(path_empty, sizeof path_empty, "%s/empty", dir);
    FILE *f = fopen(path_reg, "w");
    for (int i = 0; i < 10; i++) fputs("0123456789", f);
    fclose(f);
    fclose(fopen(path_empty, "w"));
    CHECK(mkfifo(path_fifo, 0600) == 0);
}

static void teardown(void)
{
    unlink(path_reg);
    unlink(path_fifo);
    unlink(path_empty);
    rmdir(dir);
}

static void test_regular(void)
{
    char err[256] = "";
    char *data = NULL;
    size_t size = 0;
    CHECK(cc_input_read(path_reg, 100, &data, &size, err, sizeof err) == 0);
    CHECK_EQ_U64(size, 100);
    CHECK(data && data[100] == '\0' && memcmp(data, "0123456789", 10) == 0);
    free(data);
    CHECK(cc_input_read(path_reg, 99, &data, &size, err, sizeof err) == -1);
    CHECK(data == NULL);
    CHECK_STR(err, "larger than 99 bytes");
    CHECK(cc_input_read(path_empty, 10, &data, &size, err, sizeof err) == 0);
    CHECK(size == 0 && data && data[0] == '\0');
    free(data);

    cc_input_map m;
    CHECK(cc_input_map_open(path_reg, &m, err, sizeof err) == 0);
    CHECK(m.size == 100 && memcmp(m.data + 90, "0123456789", 10) == 0);
    cc_input_map_close(&m);
    CHECK(cc_input_map_open(path_empty, &m, err, sizeof err) == 0);
    CHECK(m.size == 0 && m.data != NULL);
    cc_input_map_close(&m);
}

static void refused(const char *path, const char *why)
{
    char err[256] = "";
    char *data = NULL;
    size_t size = 0;
    cc_input_map m;
    uint64_t sz;
    CHECK(cc_input_open(path, &sz, err, sizeof err) == -1);
    CHECK_STR(err, why);
    err[0] = '\0';
    CHECK(cc_input_read(path, 1u << 20, &data, &size, err, sizeof err) == -1);
    CHECK(data == NULL);
    CHECK_STR(err, why);
    err[0] = '\0';
    CHECK(cc_input_map_open(path, &m, err, sizeof err) == -1);
    CHECK_STR(err, why);

    /* The readers of recordings and suppressions name the path, then the same reason. */
    char want[512];
    snprintf(want, sizeof want, "%s: %s", path, why);
    err[0] = '\0';
    CHECK(cc_evt_reader_open(path, err, sizeof err) == NULL);
    CHECK_STR(err, want);
    err[0] = '\0';
    CHECK(cc_suppressions_load(path, err, sizeof err) == NULL);
    CHECK_STR(err, want);
}

int main(void)
{
    alarm(20); /* a blocking open() of the FIFO fails the test instead of hanging it */
    setup();
    test_regular();
    refused(path_fifo, "not a regular file (a FIFO)");
    refused("/dev/zero", "not a regular file (a character device)");
    refused(dir, "is a directory");
    char missing[160];
    snprintf(missing, sizeof missing, "%s/missing", dir);
    refused(missing, "No such file or directory");
    CHECK_STR(cc_input_kind_name(S_IFSOCK), "a socket");
    teardown();
    TEST_MAIN_END();
}
