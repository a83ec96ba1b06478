/* Opening the files cucheck writes (reports, recordings, traces, --output) so that nobody else
 * can redirect them: a file is created new (O_CREAT|O_EXCL|O_NOFOLLOW, mode 0600, close-on-exec);
 * a name that already exists is reused only when it is a regular file of this user with no other
 * hard link, and never through a symbolic link. Anything else at the name (a link planted in a
 * directory others can write to, another user's file, a hard link to some other file) means the
 * name is taken, and the message says by what. */
#ifndef CUCHECK_CORE_OWNED_FILE_H
#define CUCHECK_CORE_OWNED_FILE_H

#include <stddef.h>

enum {
    /* An existing file is appended to (and every write goes to its end); without it, an
     * existing file's contents are replaced. */
    CC_OWNED_APPEND = 1u,
    /* An output the user named: a symbolic link is followed when only the user or root can
     * change the directory that holds it (/dev/stdout), and a device or pipe is written as is
     * (/dev/null). */
    CC_OWNED_USER_NAMED = 2u,
};

/* Opens path for writing. Returns a close-on-exec file descriptor, or -1 with a message in err:
 * "the name is taken by ..." for a name cucheck must not write to, else the system's reason. */
int cc_owned_file_open(const char *path, unsigned flags, char *err, size_t errlen);

/* Says, without opening anything, whether cc_owned_file_open(path, flags) would find the name
 * taken: 0 when it is free or reusable, -1 with the same message otherwise. For checks made
 * before a program starts; the open checks again. */
int cc_owned_file_check(const char *path, unsigned flags, char *err, size_t errlen);

#endif
