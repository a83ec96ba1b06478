/* Parsing of the options that follow a tool name, and the tool's check of their values
 * (tool_args.h). */
#include "cli/tool_args.h"

#include <string.h>

#include "cli/diag.h"

int cc_cli_take_tool_option(const cc_tool *tool, cc_options *out, cc_cli_opts *g, cc_args *a,
                            const cc_arg *arg, const char *cmd)
{
    const cc_option_spec *s = arg->is_short ? NULL : cc_args_find(tool->options, arg->name);
    if (!s) {
        int r = cc_cli_take_global(g, a, arg, cmd);
        if (r == CC_GOPT_NOT_GLOBAL) {
            cc_cli_usage_error(cmd, "unknown option '%s%s'", arg->is_short ? "-" : "--",
                               arg->name);
            return CC_GOPT_ERROR;
        }
        return r;
    }
    const char *v = "1";
    if (s->takes_value) {
        v = cc_args_value(a, arg);
        if (!v) {
            cc_cli_usage_error(cmd, "option '--%s' needs a value: --%s %s", s->name, s->name,
                               s->value_name ? s->value_name : "VALUE");
            return CC_GOPT_ERROR;
        }
        if (strchr(v, '\n') || strchr(v, '\r')) {
            cc_cli_usage_error(cmd, "the value of option '--%s' may not contain a line break",
                               s->name);
            return CC_GOPT_ERROR;
        }
    } else if (arg->value) {
        cc_cli_usage_error(cmd, "option '--%s' takes no value", s->name);
        return CC_GOPT_ERROR;
    }
    if (cc_options_set(out, s->name, v) != 0) {
        cc_cli_error("out of memory");
        return CC_GOPT_ERROR;
    }
    return CC_GOPT_TAKEN;
}

int cc_cli_check_tool_options(const cc_tool *tool, const cc_options *opts, const char *cmd)
{
    char err[1024] = "";
    if (!tool->check_options ||
        tool->check_options(cc_options_getter, (void *)opts, err, sizeof err) == 0) {
        return 0;
    }
    cc_cli_error("%s: %s", cmd, err[0] ? err : "bad option value");
    return -1;
}
