/* Input files: regular files only, opened without blocking, mapped or read whole within a limit
 * (input_file.h). */
#include "core/input_file.h"
#include "core/grow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

const char *cc_input_kind_name(unsigned mode)
{
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISREG(mode)) return "a regular file";
    return "not a file";
}

static int refuse_kind(unsigned mode, char *err, size_t errlen)
{
    if (S_ISDIR(mode))
        snprintf(err, errlen, "is a directory");
    else
        snprintf(err, errlen, "not a regular file (%s)", cc_input_kind_name(mode));
    return -1;
}

int cc_input_open(const char *path, uint64_t *size, char *err, size_t errlen)
{
    struct stat st;
    /* Look before opening: opening a device can have effects of its own. */
    if (stat(path, &st) != 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        return -1;
    }
    if (!S_ISREG(st.st_mode)) return refuse_kind((unsigned)st.st_mode, err, errlen);
    /* O_NONBLOCK: should the path have become a FIFO since, open() still returns at once. */
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        return -1;
    }
    if (fstat(fd, &st) != 0) {
        snprintf(err, errlen, "%s", strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        return refuse_kind((unsigned)st.st_mode, err, errlen);
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0) (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    *size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
    return fd;
}

int cc_input_map_open(const char *path, cc_input_map *m, char *err, size_t errlen)
{
    memset(m, 0, sizeof *m);
    m->data = (const unsigned char *)"";
    uint64_t size;
    int fd = cc_input_open(path, &size, err, errlen);
    if (fd < 0) return -1;
    if (size > (uint64_t)SIZE_MAX) {
        snprintf(err, errlen, "too large to map (%llu bytes)", (unsigned long long)size);
        close(fd);
        return -1;
    }
    if (size) {
        void *p = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            snprintf(err, errlen, "cannot map: %s", strerror(errno));
            close(fd);
            return -1;
        }
        m->map_ = p;
        m->data = p;
        m->size = (size_t)size;
    }
    close(fd);
    return 0;
}

void cc_input_map_close(cc_input_map *m)
{
    if (m && m->map_) munmap(m->map_, m->size);
    if (m) {
        m->map_ = NULL;
        m->data = (const unsigned char *)"";
        m->size = 0;
    }
}

int cc_input_read(const char *path, size_t max, char **data, size_t *size, char *err,
                  size_t errlen)
{
    *data = NULL;
    *size = 0;
    if (max > SIZE_MAX / 4) max = SIZE_MAX / 4;
    uint64_t st_size;
    int fd = cc_input_open(path, &st_size, err, errlen);
    if (fd < 0) return -1;
    if (st_size > (uint64_t)max) {
        snprintf(err, errlen, "larger than %zu bytes", max);
        close(fd);
        return -1;
    }
    /* The file may change while it is read: `want` (the bytes that may be read so far) grows as
     * needed, but never past max + 1, the one byte more telling "exactly max" from "grew past
     * max". The buffer holds `want` bytes and a NUL. */
    size_t want = (size_t)st_size + 1, n = 0, cap = 0;
    char *buf = NULL;
    while (CC_ARRAY_RESERVE(buf, cap, want + 1) == 0) {
        if (n == want) {
            if (want > max) {
                snprintf(err, errlen, "larger than %zu bytes", max);
                free(buf);
                close(fd);
                return -1;
            }
            want = want * 2 > max + 1 ? max + 1 : want * 2;
            continue; /* room for it first */
        }
        ssize_t k = read(fd, buf + n, want - n);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) {
            snprintf(err, errlen, "read error: %s", strerror(errno));
            free(buf);
            close(fd);
            return -1;
        }
        if (k == 0) {
            close(fd);
            buf[n] = '\0';
            *data = buf;
            *size = n;
            return 0;
        }
        n += (size_t)k;
    }
    free(buf);
    close(fd);
    snprintf(err, errlen, "out of memory");
    return -1;
}
