/* Files nobody else can redirect (owned_file.h): create new with O_EXCL|O_NOFOLLOW and mode
 * 0600, else reuse only a regular file of this user with one link. The name is looked up relative
 * to its directory opened once (O_PATH), so the two steps see the same directory. */
#include "core/owned_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void say(char *err, size_t errlen, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

/* Splits path into its directory ("." or "/" when it has none) and its last component. */
static int split(const char *path, char *dir, size_t dirlen, const char **base, char *err,
                 size_t errlen)
{
    const char *slash = strrchr(path, '/');
    *base = slash ? slash + 1 : path;
    if (!**base) {
        say(err, errlen, "the name is a directory");
        return -1;
    }
    size_t n = slash ? (size_t)(slash - path) : 0;
    if (n + 2 > dirlen) {
        say(err, errlen, strerror(ENAMETOOLONG));
        return -1;
    }
    if (!slash) {
        strcpy(dir, ".");
    } else if (n == 0) {
        strcpy(dir, "/");
    } else {
        memcpy(dir, path, n);
        dir[n] = '\0';
    }
    return 0;
}

/* Only this user or root can add, remove or rename names in the directory. */
static int private_dir(const struct stat *st)
{
    return (st->st_uid == geteuid() || st->st_uid == 0) && !(st->st_mode & (S_IWGRP | S_IWOTH));
}

/* Why an existing file st must not be written, or NULL when it may be. */
static const char *taken_by(const struct stat *st, unsigned flags)
{
    if (S_ISREG(st->st_mode)) {
        if (st->st_uid != geteuid()) return "the name is taken by a file of another user";
        if (st->st_nlink != 1) return "the name is taken by a file with other hard links";
        return NULL;
    }
    if ((flags & CC_OWNED_USER_NAMED) &&
        (S_ISCHR(st->st_mode) || S_ISFIFO(st->st_mode) || S_ISSOCK(st->st_mode)))
        return NULL;
    if (S_ISDIR(st->st_mode)) return "the name is taken by a directory";
    return "the name is taken by something that is not a regular file";
}

static const char *link_taken(unsigned flags)
{
    return (flags & CC_OWNED_USER_NAMED)
               ? "the name is taken by a symbolic link in a directory others can change "
                 "(cucheck does not follow it)"
               : "the name is taken by a symbolic link (cucheck does not follow links)";
}

/* Opens the existing name for writing, or returns -1 (errno ENOENT: it went away meanwhile). */
static int open_existing(int dfd, const char *base, int wr, unsigned flags, char *err,
                         size_t errlen)
{
    struct stat dst;
    int follow = (flags & CC_OWNED_USER_NAMED) && fstat(dfd, &dst) == 0 && private_dir(&dst);
    int fd = openat(dfd, base, wr | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW));
    if (fd < 0) {
        int e = errno;
        if (e == ELOOP && !follow)
            say(err, errlen, link_taken(flags));
        else if (e == EISDIR)
            say(err, errlen, "the name is taken by a directory");
        else if (e == ENXIO)
            say(err, errlen, (flags & CC_OWNED_USER_NAMED)
                                 ? "the name is taken by a pipe that nobody reads"
                                 : "the name is taken by something that is not a regular file");
        else
            say(err, errlen, strerror(e));
        errno = e;
        return -1;
    }
    struct stat st;
    const char *why = fstat(fd, &st) != 0 ? strerror(errno) : taken_by(&st, flags);
    if (!why && S_ISREG(st.st_mode) && !(flags & CC_OWNED_APPEND) && ftruncate(fd, 0) != 0)
        why = strerror(errno);
    int fl = why ? 0 : fcntl(fd, F_GETFL);
    if (!why && (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0)) why = strerror(errno);
    if (why) {
        say(err, errlen, why);
        close(fd);
        errno = EEXIST;
        return -1;
    }
    return fd;
}

int cc_owned_file_open(const char *path, unsigned flags, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    const char *base;
    if (!path || split(path, dir, sizeof dir, &base, err, errlen) != 0) return -1;
    int dfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (dfd < 0) {
        say(err, errlen, strerror(errno));
        return -1;
    }
    int wr = O_WRONLY | O_CLOEXEC | ((flags & CC_OWNED_APPEND) ? O_APPEND : 0);
    int fd = -1;
    for (int attempt = 0; attempt < 3 && fd < 0; attempt++) {
        fd = openat(dfd, base, wr | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
        if (fd >= 0) break;
        if (errno != EEXIST) {
            say(err, errlen, strerror(errno));
            break;
        }
        fd = open_existing(dfd, base, wr, flags, err, errlen);
        if (fd < 0 && errno != ENOENT) break; /* else removed meanwhile: create it */
    }
    close(dfd);
    return fd;
}

int cc_owned_file_check(const char *path, unsigned flags, char *err, size_t errlen)
{
    char dir[PATH_MAX];
    const char *base;
    if (!path || split(path, dir, sizeof dir, &base, err, errlen) != 0) return -1;
    struct stat st;
    if (lstat(path, &st) != 0) return 0; /* free; the open says what else is wrong */
    if (S_ISLNK(st.st_mode)) {
        struct stat dst;
        if (!(flags & CC_OWNED_USER_NAMED) || stat(dir, &dst) != 0 || !private_dir(&dst)) {
            say(err, errlen, link_taken(flags));
            return -1;
        }
        if (stat(path, &st) != 0) return 0;
    }
    const char *why = taken_by(&st, flags);
    if (why) {
        say(err, errlen, why);
        return -1;
    }
    return 0;
}
