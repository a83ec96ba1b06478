/* File helpers shared by cucheck's CPU unit tests: read a whole file, write a text file, and ask
 * whether nvcc is there (tests that compile CUDA code at run time skip without it). */
#ifndef CUCHECK_TEST_FILES_H
#define CUCHECK_TEST_FILES_H

#include <stdio.h>
#include <stdlib.h>

/* The whole file, NUL-terminated (so it also serves as text); *len (if len) gets its size.
 * NULL if it cannot be read. */
static inline char *cc_test_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0)
        buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (!buf)
        return NULL;
    buf[n] = '\0';
    if (len)
        *len = (size_t)n;
    return buf;
}

/* Write text to path; 0 on success. */
static inline int cc_test_write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    int ok = fputs(text, f) >= 0;
    return (fclose(f) == 0 && ok) ? 0 : -1;
}

static inline int cc_test_have_nvcc(void)
{
    return system("nvcc --version > /dev/null 2>&1") == 0;
}

#endif
