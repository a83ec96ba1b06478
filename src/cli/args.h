/* A tiny reusable command-line scanner: walks argv and classifies each word as a long option
 * (`--name`, `--name=VALUE`), a short option (`-x`), a positional word, or the `--` separator;
 * fetches option values given as `--name VALUE` or `--name=VALUE`; looks names up in
 * cc_option_spec tables. It prints nothing: callers turn errors into their own messages. */
#ifndef CUCHECK_CLI_ARGS_H
#define CUCHECK_CLI_ARGS_H

#include "cucheck/tool.h"

typedef enum cc_arg_type {
    CC_ARG_END = 0,        /* no words left */
    CC_ARG_OPTION = 1,     /* --name, --name=VALUE or -x */
    CC_ARG_POSITIONAL = 2, /* a word that is not an option ("-" counts as positional) */
    CC_ARG_DASHDASH = 3,   /* "--": everything after it is positional */
} cc_arg_type;

typedef struct cc_args {
    int argc;
    char **argv;
    int idx; /* next word to look at */
} cc_args;

typedef struct cc_arg {
    int type;            /* cc_arg_type */
    char name[128];      /* option name without dashes and without "=VALUE" (truncated) */
    int is_short;        /* given as -x */
    const char *value;   /* the text after '=', or NULL */
    const char *word;    /* the whole word as written */
} cc_arg;

void cc_args_init(cc_args *a, int argc, char **argv, int start);
/* Classify the next word and step over it. */
int cc_args_next(cc_args *a, cc_arg *out);
/* The value of option `arg`: its inline "=VALUE", else the next word (stepped over).
 * NULL when there is none: no word left, or the next word is "--" (not stepped over). */
const char *cc_args_value(cc_args *a, const cc_arg *arg);
/* Words not yet looked at. */
int cc_args_remaining(const cc_args *a);

/* Find an option by name in a table terminated by an entry with name == NULL; table may be NULL. */
const cc_option_spec *cc_args_find(const cc_option_spec *table, const char *name);

#endif
