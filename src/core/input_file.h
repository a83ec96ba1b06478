/* Opening the files cucheck reads as inputs (recordings and scenarios, binaries, profile traces,
 * suppressions): only regular files are read. A FIFO, a device (/dev/zero), a socket or a
 * directory is refused with a one-line reason instead of blocking in open() or being read
 * without end. Regular files are either mapped (any size: the page cache holds them, not the
 * heap) or read whole into memory up to a limit the caller names. */
#ifndef CUCHECK_CORE_INPUT_FILE_H
#define CUCHECK_CORE_INPUT_FILE_H

#include <stddef.h>
#include <stdint.h>

/* A read-only file descriptor of path when it is a regular file (never blocks: a FIFO is opened
 * non-blocking and refused), with its size. -1 with the reason in err ("No such file or
 * directory", "not a regular file (a FIFO)", ...): err never repeats the path. */
int cc_input_open(const char *path, uint64_t *size, char *err, size_t errlen);

/* What kind of file mode is, in words ("a FIFO", "a character device", "a directory", ...). */
const char *cc_input_kind_name(unsigned mode);

typedef struct cc_input_map {
    const unsigned char *data; /* the whole file; "" (not NULL) when it is empty */
    size_t size;
    void *map_;    /* the mapping (NULL for an empty file) */
} cc_input_map;

/* Maps the whole regular file path read-only. 0 ok; -1 with the reason in err (no path). */
int cc_input_map_open(const char *path, cc_input_map *m, char *err, size_t errlen);
void cc_input_map_close(cc_input_map *m);

/* Reads the whole regular file path into a malloc'd buffer, NUL-terminated one byte past *size.
 * A file larger than max bytes is refused ("larger than N bytes"), so is one that grows past
 * max while it is read. 0 ok; -1 with the reason in err (no path). */
int cc_input_read(const char *path, size_t max, char **data, size_t *size, char *err,
                  size_t errlen);

#endif
