/* The tiny command-line scanner declared in args.h. */
#include "cli/args.h"

#include <string.h>

void cc_args_init(cc_args *a, int argc, char **argv, int start)
{
    a->argc = argc;
    a->argv = argv;
    a->idx = start < 0 ? 0 : start;
}

int cc_args_remaining(const cc_args *a)
{
    return a->idx < a->argc ? a->argc - a->idx : 0;
}

int cc_args_next(cc_args *a, cc_arg *out)
{
    memset(out, 0, sizeof *out);
    if (a->idx >= a->argc || !a->argv[a->idx]) {
        out->type = CC_ARG_END;
        return CC_ARG_END;
    }
    const char *w = a->argv[a->idx++];
    out->word = w;
    if (strcmp(w, "--") == 0) {
        out->type = CC_ARG_DASHDASH;
        return out->type;
    }
    if (w[0] != '-' || w[1] == '\0') {
        out->type = CC_ARG_POSITIONAL;
        return out->type;
    }
    const char *name = w + 1;
    if (w[1] == '-') {
        name = w + 2;
    } else {
        out->is_short = 1;
    }
    const char *eq = strchr(name, '=');
    size_t len = eq ? (size_t)(eq - name) : strlen(name);
    if (len >= sizeof out->name) {
        len = sizeof out->name - 1;
    }
    memcpy(out->name, name, len);
    out->name[len] = '\0';
    out->value = eq ? eq + 1 : NULL;
    out->type = CC_ARG_OPTION;
    return out->type;
}

const char *cc_args_value(cc_args *a, const cc_arg *arg)
{
    if (arg->value) {
        return arg->value;
    }
    /* "--" ends the options: it is never the value of the option before it */
    if (a->idx < a->argc && a->argv[a->idx] && strcmp(a->argv[a->idx], "--") != 0) {
        return a->argv[a->idx++];
    }
    return NULL;
}

const cc_option_spec *cc_args_find(const cc_option_spec *table, const char *name)
{
    if (!table || !name) {
        return NULL;
    }
    for (const cc_option_spec *s = table; s->name; s++) {
        if (strcmp(s->name, name) == 0) {
            return s;
        }
    }
    return NULL;
}
