/* Output and input files of the profile: plain files, or gzip through zlib. zlib (libz.so.1,
 * Debian's zlib1g) is loaded with dlopen when first needed, so neither the agent nor the CLI
 * links it; where it is missing a gzip request writes a plain file and says so. A gzip stream
 * is wrapped into a stdio FILE (fopencookie), so every writer just uses fprintf. Files are
 * created new with mode 0600 or replace an own file's contents, never through a link planted
 * where others can write (core/owned_file.h: names the user gave). Inputs (cucheck merge's
 * traces) must be regular files (core/input_file.h); they are read as a stream, so a gzip'ed
 * one never has to fit in memory. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/input_file.h"
#include "core/owned_file.h"
#include "tools/profile/profile.h"

/* zlib's gzip file API, as its stable ABI defines it (gzFile is an opaque pointer). */
typedef void *cc_gzfile;
static struct {
    cc_gzfile (*open)(const char *path, const char *mode);
    cc_gzfile (*dopen)(int fd, const char *mode);
    int (*write)(cc_gzfile f, const void *buf, unsigned len);
    int (*read)(cc_gzfile f, void *buf, unsigned len);
    int (*close)(cc_gzfile f);
    int ok;
} z;
static pthread_once_t z_once = PTHREAD_ONCE_INIT;

static void z_load(void)
{
    void *h = dlopen("libz.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!h) h = dlopen("libz.so", RTLD_NOW | RTLD_LOCAL);
    if (!h) return;
#define SYM(field, name) do { void *p_ = dlsym(h, name); memcpy(&z.field, &p_, sizeof p_); } while (0)
    SYM(open, "gzopen");
    SYM(dopen, "gzdopen");
    SYM(write, "gzwrite");
    SYM(read, "gzread");
    SYM(close, "gzclose");
#undef SYM
    z.ok = z.open && z.dopen && z.write && z.read && z.close;
}

int cc_prof_zlib_available(void)
{
    pthread_once(&z_once, z_load);
    return z.ok;
}

static ssize_t gz_cookie_write(void *c, const char *buf, size_t size)
{
    size_t done = 0;
    while (done < size) {
        unsigned chunk = size - done > (1u << 30) ? 1u << 30 : (unsigned)(size - done);
        int n = z.write(c, buf + done, chunk);
        if (n <= 0) return done ? (ssize_t)done : -1;
        done += (size_t)n;
    }
    return (ssize_t)done;
}

static ssize_t gz_cookie_read(void *c, char *buf, size_t size)
{
    unsigned chunk = size > (1u << 30) ? 1u << 30 : (unsigned)size;
    int n = z.read(c, buf, chunk);
    return n < 0 ? -1 : n;
}

static int gz_cookie_close(void *c)
{
    return z.close(c) == 0 ? 0 : EOF;
}

FILE *cc_prof_open_write(const char *path, int gzip, int *gz_used, char *err, size_t errlen)
{
    *gz_used = 0;
    char why[256] = "";
    int fd = cc_owned_file_open(path, CC_OWNED_USER_NAMED, why, sizeof why);
    if (fd < 0) {
        snprintf(err, errlen, "cannot create %s: %s", path, why);
        return NULL;
    }
    if (gzip && cc_prof_zlib_available()) {
        cc_gzfile g = z.dopen(fd, "wb6"); /* owns fd from here on */
        if (!g) {
            close(fd);
            snprintf(err, errlen, "cannot create %s: out of memory", path);
            return NULL;
        }
        cookie_io_functions_t io = {NULL, gz_cookie_write, NULL, gz_cookie_close};
        FILE *f = fopencookie(g, "w", io);
        if (!f) {
            z.close(g);
            snprintf(err, errlen, "cannot create %s: out of memory", path);
            return NULL;
        }
        setvbuf(f, NULL, _IOFBF, 1 << 16);
        *gz_used = 1;
        return f;
    }
    FILE *f = fdopen(fd, "w");
    if (!f) {
        snprintf(err, errlen, "cannot create %s: %s", path, strerror(errno));
        close(fd);
    }
    return f;
}

FILE *cc_prof_open_read(const char *path, char *err, size_t errlen)
{
    char why[256];
    uint64_t size;
    int fd = cc_input_open(path, &size, why, sizeof why); /* a FIFO or device is refused */
    FILE *f = fd >= 0 ? fdopen(fd, "rb") : NULL;
    if (!f) {
        snprintf(err, errlen, "cannot open %s: %s", path, fd >= 0 ? strerror(errno) : why);
        if (fd >= 0) close(fd);
        return NULL;
    }
    unsigned char magic[2] = {0, 0};
    size_t n = fread(magic, 1, 2, f);
    if (n < 2 || magic[0] != 0x1f || magic[1] != 0x8b) {
        rewind(f);
        return f;
    }
    if (!cc_prof_zlib_available()) {
        fclose(f);
        snprintf(err, errlen, "%s is gzip-compressed and zlib (libz.so.1) is not available",
                 path);
        return NULL;
    }
    /* The same open file, from its start (the path is not opened again). */
    int gfd = fcntl(fileno(f), F_DUPFD_CLOEXEC, 0);
    fclose(f);
    cc_gzfile g = gfd >= 0 && lseek(gfd, 0, SEEK_SET) == 0 ? z.dopen(gfd, "rb") : NULL;
    if (!g) {
        snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
        if (gfd >= 0) close(gfd);
        return NULL;
    }
    cookie_io_functions_t io = {gz_cookie_read, NULL, NULL, gz_cookie_close};
    f = fopencookie(g, "r", io);
    if (!f) {
        z.close(g);
        snprintf(err, errlen, "cannot open %s: out of memory", path);
    }
    return f;
}
