/* compute-sanitizer's kernel filter values as globs (kernel_filter.h). */
#include "core/kernel_filter.h"

#include <stdio.h>
#include <string.h>

#include "core/option_values.h"

#define FILTER_EXPECTED "kernel_name=NAME, kne=NAME, kernel_substring=TEXT or kns=TEXT"

/* Append s to out at *k with glob characters made literal; -1 when it does not fit. */
static int put_literal(char *out, size_t outlen, size_t *k, const char *s)
{
    for (; *s; s++) {
        int special = *s == '*' || *s == '?' || *s == '\\';
        if (*k + (size_t)special + 1 >= outlen) {
            return -1;
        }
        if (special) {
            out[(*k)++] = '\\';
        }
        out[(*k)++] = *s;
    }
    out[*k] = '\0';
    return 0;
}

int cc_kernel_filter_glob(const char *option, const char *value, char *out, size_t outlen,
                          char *err, size_t errlen)
{
    const char *eq = strchr(value, '=');
    size_t keylen = eq ? (size_t)(eq - value) : 0;
    int substring = 0;
    if (eq && ((keylen == 11 && strncmp(value, "kernel_name", 11) == 0) ||
               (keylen == 3 && strncmp(value, "kne", 3) == 0))) {
        substring = 0;
    } else if (eq && ((keylen == 16 && strncmp(value, "kernel_substring", 16) == 0) ||
                      (keylen == 3 && strncmp(value, "kns", 3) == 0))) {
        substring = 1;
    } else if (eq && keylen == 5 && strncmp(value, "regex", 5) == 0) {
        return cc_optval_refuse(option, value, FILTER_EXPECTED "; cucheck takes no regular "
                                "expressions: kns= or a glob with --kernel-include/--kernel-exclude",
                                err, errlen);
    } else {
        return cc_optval_refuse(option, value, FILTER_EXPECTED, err, errlen);
    }
    const char *text = eq + 1;
    if (!*text) {
        return cc_optval_refuse(option, value, FILTER_EXPECTED " with a non-empty value", err,
                                errlen);
    }
    if (strchr(text, ',')) {
        return cc_optval_refuse(option, value, "one key=value per option: cucheck keeps one "
                                "filter (" FILTER_EXPECTED ")", err, errlen);
    }
    size_t k = 0;
    out[0] = '\0';
    if (substring && outlen > 1) {
        out[k++] = '*';
        out[k] = '\0';
    }
    if (put_literal(out, outlen, &k, text) != 0) {
        return cc_optval_refuse(option, value, "a name of at most 250 characters", err, errlen);
    }
    if (substring) {
        if (k + 2 > outlen) {
            return cc_optval_refuse(option, value, "a name of at most 250 characters", err,
                                    errlen);
        }
        out[k++] = '*';
        out[k] = '\0';
    }
    return 0;
}
