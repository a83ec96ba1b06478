/* The .cuevt writer: appends encoded records to a buffer under a mutex and writes the buffer to
 * the file with write(2) when it fills, on flush and on close. The file is created new with mode
 * 0600, or replaces an own file's contents, never through a link (core/owned_file.h).
 *
 * Flushing from a fatal-signal handler (the agent's crash path): cc_evt_writer_flush uses only
 * async-signal-safe calls besides pthread_mutex_trylock. It tries the lock for up to ~100 ms.
 * If the lock is held by the very thread the signal interrupted (the crash happened inside
 * cc_evt_write), it writes the records already complete in the buffer without the lock and
 * seals the writer: later writes are dropped, since the interrupted call cannot be resumed
 * safely. If another thread holds the lock for longer, the flush gives up and returns -1. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "core/evtio.h"
#include "core/evtio_internal.h"
#include "core/owned_file.h"

#define WRITER_BUFFER (256u * 1024u)

struct cc_evt_writer {
    pthread_mutex_t mu;
    int fd;
    unsigned char *buf;
    _Atomic size_t len;       /* bytes of complete records in buf */
    _Atomic long owner;       /* tid holding mu, 0 if none */
    _Atomic int in_io;        /* the owner is inside write_all */
    _Atomic int sealed;       /* emergency flush happened: drop further writes */
    int failed;               /* an I/O error happened; later calls fail */
};

static void set_err(char *err, size_t errlen, const char *path, const char *msg)
{
    if (err && errlen) snprintf(err, errlen, "%s: %s", path, msg);
}

static long self_tid(void)
{
    return (long)syscall(SYS_gettid);
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n) {
        ssize_t k = write(fd, p, n);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

static void lock(cc_evt_writer *w)
{
    pthread_mutex_lock(&w->mu);
    atomic_store(&w->owner, self_tid());
}

static void unlock(cc_evt_writer *w)
{
    atomic_store(&w->owner, 0);
    pthread_mutex_unlock(&w->mu);
}

static int flush_locked(cc_evt_writer *w)
{
    size_t n = atomic_load(&w->len);
    if (w->failed) return -1;
    if (!n) return 0;
    atomic_store(&w->in_io, 1);
    int rc = write_all(w->fd, w->buf, n);
    atomic_store(&w->len, 0);
    atomic_store(&w->in_io, 0);
    if (rc) w->failed = 1;
    return rc;
}

static uint64_t now_ns(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

cc_evt_writer *cc_evt_writer_open(const char *path, char *err, size_t errlen)
{
    cc_evt_writer *w = calloc(1, sizeof *w);
    unsigned char *buf = malloc(WRITER_BUFFER);
    if (!w || !buf) {
        free(w);
        free(buf);
        set_err(err, errlen, path, "out of memory");
        return NULL;
    }
    char why[256] = "";
    w->fd = cc_owned_file_open(path, 0, why, sizeof why);
    if (w->fd < 0) {
        set_err(err, errlen, path, why);
        free(w);
        free(buf);
        return NULL;
    }
    pthread_mutex_init(&w->mu, NULL);
    w->buf = buf;
    unsigned char hdr[CC_EVT_HEADER_SIZE];
    cc_evt_encode_file_header(hdr, (uint32_t)getpid(), now_ns(CLOCK_REALTIME),
                              now_ns(CLOCK_MONOTONIC));
    if (write_all(w->fd, hdr, sizeof hdr)) {
        set_err(err, errlen, path, strerror(errno));
        close(w->fd);
        pthread_mutex_destroy(&w->mu);
        free(w);
        free(buf);
        return NULL;
    }
    return w;
}

int cc_evt_write(cc_evt_writer *w, const cc_event *ev)
{
    size_t n = cc_evt_encoded_size(ev);
    if (!w || !n) return -1;
    if (atomic_load(&w->sealed)) return -1;
    int rc = 0;
    lock(w);
    size_t len = atomic_load(&w->len);
    if (w->failed) {
        rc = -1;
    } else if (n <= WRITER_BUFFER - len) {
        cc_evt_encode(ev, w->buf + len, n);
        atomic_store(&w->len, len + n); /* the record is complete only now */
    } else if ((rc = flush_locked(w)) == 0) {
        if (n <= WRITER_BUFFER) {
            cc_evt_encode(ev, w->buf, n);
            atomic_store(&w->len, n);
        } else {
            unsigned char *big = malloc(n);
            if (!big) {
                rc = -1;
            } else {
                cc_evt_encode(ev, big, n);
                atomic_store(&w->in_io, 1);
                rc = write_all(w->fd, big, n);
                atomic_store(&w->in_io, 0);
                if (rc) w->failed = 1;
                free(big);
            }
        }
    }
    unlock(w);
    return rc;
}

int cc_evt_writer_flush(cc_evt_writer *w)
{
    if (!w) return -1;
    long self = self_tid();
    for (int i = 0; i < 100; i++) {
        if (pthread_mutex_trylock(&w->mu) == 0) {
            atomic_store(&w->owner, self);
            int rc = atomic_load(&w->sealed) ? 0 : flush_locked(w);
            unlock(w);
            return rc;
        }
        if (atomic_load(&w->owner) == self) {
            /* A signal interrupted this thread inside cc_evt_write: emergency path. */
            if (atomic_load(&w->in_io) || atomic_exchange(&w->sealed, 1)) return -1;
            size_t n = atomic_load(&w->len);
            return (n && !w->failed) ? write_all(w->fd, w->buf, n) : 0;
        }
        struct timespec ms = { 0, 1000000 };
        nanosleep(&ms, NULL);
    }
    return -1;
}

int cc_evt_writer_close(cc_evt_writer *w)
{
    if (!w) return -1;
    int rc = 0;
    if (!atomic_load(&w->sealed)) {
        lock(w);
        rc = flush_locked(w);
        unlock(w);
    }
    if (close(w->fd) != 0) rc = -1;
    if (w->failed) rc = -1;
    pthread_mutex_destroy(&w->mu);
    free(w->buf);
    free(w);
    return rc;
}
