/* CUDA toolkit header detection for device line information (see toolkit_path.h): the path is
 * split into components (directory, then file) and matched against the include-directory
 * layouts of toolkit installs, pip wheels and CCCL. */
#include "symbols/toolkit_path.h"

#include <stddef.h>
#include <string.h>

#define MAX_PARTS 256 /* components looked at; deeper ones are ignored */

typedef struct part {
    const char *s;
    size_t n;
} part;

typedef struct parts {
    part p[MAX_PARTS];
    size_t n;
} parts;

static int is_sep(char c)
{
    return c == '/' || c == '\\';
}

static void split(parts *ps, const char *path)
{
    const char *s = path;
    while (*s && ps->n < MAX_PARTS) {
        while (is_sep(*s))
            s++;
        const char *b = s;
        while (*s && !is_sep(*s))
            s++;
        if (s > b) {
            ps->p[ps->n].s = b;
            ps->p[ps->n].n = (size_t)(s - b);
            ps->n++;
        }
    }
}

static char lower(char c)
{
    return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* Component i equals word (ASCII case-insensitive); out of range is no match. */
static int word_at(const parts *ps, size_t i, const char *word)
{
    if (i >= ps->n || ps->p[i].n != strlen(word))
        return 0;
    for (size_t k = 0; k < ps->p[i].n; k++)
        if (lower(ps->p[i].s[k]) != word[k])
            return 0;
    return 1;
}

/* Digits and dots, starting with a digit: "13", "13.0", "12.4.1". */
static int is_version_str(const char *s, size_t n)
{
    if (n == 0 || s[0] < '0' || s[0] > '9')
        return 0;
    for (size_t k = 1; k < n; k++)
        if ((s[k] < '0' || s[k] > '9') && s[k] != '.')
            return 0;
    return 1;
}

/* A version directory: "12.3" or "v13.0". */
static int version_at(const parts *ps, size_t i)
{
    if (i >= ps->n)
        return 0;
    const part *p = &ps->p[i];
    int v = p->n > 1 && lower(p->s[0]) == 'v';
    return is_version_str(p->s + v, p->n - (size_t)v);
}

/* "cuda", "cuda-13.0", "cuda_12", "cuda13" (not "cuda-kernels"). */
static int cuda_at(const parts *ps, size_t i)
{
    if (i >= ps->n || ps->p[i].n < 4)
        return 0;
    const part *p = &ps->p[i];
    for (size_t k = 0; k < 4; k++)
        if (lower(p->s[k]) != "cuda"[k])
            return 0;
    size_t k = 4;
    if (k < p->n && (p->s[k] == '-' || p->s[k] == '_'))
        k++;
    return k == p->n ? k == 4 : is_version_str(p->s + k, p->n - k);
}

static int is_cccl_dir(const parts *ps, size_t i)
{
    return word_at(ps, i, "cub") || word_at(ps, i, "thrust") || word_at(ps, i, "cuda") ||
           word_at(ps, i, "cccl");
}

/* Does an include-directory layout start at component i? */
static int toolkit_at(const parts *ps, size_t i)
{
    if (word_at(ps, i, "targets") && i + 1 < ps->n && word_at(ps, i + 2, "include"))
        return 1;
    if (cuda_at(ps, i) && (word_at(ps, i + 1, "include") ||
                           (version_at(ps, i + 1) && word_at(ps, i + 2, "include"))))
        return 1;
    if (word_at(ps, i, "nvidia") && i + 1 < ps->n && word_at(ps, i + 2, "include"))
        return 1;
    /* include/cub/...: the CCCL directory must hold the file, not be it. */
    return word_at(ps, i, "include") && i + 2 < ps->n && is_cccl_dir(ps, i + 1);
}

static int is_absolute(const char *f)
{
    char c = lower(f[0]);
    return is_sep(f[0]) || (c >= 'a' && c <= 'z' && f[1] == ':');
}

int cc_toolkit_header(const char *dir, const char *file)
{
    parts ps;
    ps.n = 0;
    if (dir && (!file || !is_absolute(file)))
        split(&ps, dir);
    if (file)
        split(&ps, file);
    for (size_t i = 0; i < ps.n; i++)
        if (toolkit_at(&ps, i))
            return 1;
    return 0;
}
