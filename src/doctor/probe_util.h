/* Process helpers for doctor's probes: run a function in a forked child (so that a library
 * that crashes or hangs while loaded cannot take doctor down) and run a command capturing its
 * output with a time limit. */
#ifndef CUCHECK_DOCTOR_PROBE_UTIL_H
#define CUCHECK_DOCTOR_PROBE_UTIL_H

#include <stddef.h>

/* Run fn(arg, out, cap) in a forked child; the bytes it returns (<= cap) come back in out.
 * Returns that count, or -1 with err (crashed with signal N, timed out, no result). */
typedef size_t (*cc_doc_child_fn)(void *arg, void *out, size_t cap);
long cc_doc_in_child(cc_doc_child_fn fn, void *arg, void *out, size_t cap, int timeout_ms,
                     char *err, size_t errlen);

/* Run argv (PATH searched) with stdin from /dev/null, stdout captured into out (NUL-terminated,
 * truncated to cap-1) and stderr captured too when merge_stderr, else discarded. Extra
 * environment entries "NAME=value" (may be NULL) are added. Returns 0 and the exit status in
 * *status (128+signal when killed), or -1 with err (could not start, timed out). */
int cc_doc_run_capture(char *const argv[], char *const extra_env[], int merge_stderr,
                       int timeout_ms, char *out, size_t cap, int *status, char *err,
                       size_t errlen);

/* Read up to cap-1 bytes of a small file into buf (NUL-terminated); -1 if unreadable. */
long cc_doc_read_small_file(const char *path, char *buf, size_t cap);

#endif
