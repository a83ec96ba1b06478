/* The agent's environment knobs in a run (run_knobs.h): what --knob asked for, and the
 * environment the program inherits. */
#include "cli/run_knobs.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/knob_table.h"
#include "cli/diag.h"

#define CC_CLI_MAX_KNOBS 64

typedef struct cc_given_knob {
    const cc_knob_info *knob;
    const char *value; /* points into argv */
} cc_given_knob;

static cc_given_knob cc_given[CC_CLI_MAX_KNOBS];
static size_t cc_ngiven;

static const char *cc_given_value(const cc_knob_info *k)
{
    for (size_t i = 0; i < cc_ngiven; i++) {
        if (cc_given[i].knob == k) {
            return cc_given[i].value;
        }
    }
    return NULL;
}

int cc_cli_knob_option(const char *assignment, const char *cmd)
{
    const char *eq = strchr(assignment, '=');
    if (eq == NULL || eq == assignment) {
        cc_cli_usage_error(cmd, "--knob needs VAR=VALUE, not '%s'", assignment);
        return -1;
    }
    char name[128];
    size_t len = (size_t)(eq - assignment);
    if (len >= sizeof name) {
        len = sizeof name - 1;
    }
    memcpy(name, assignment, len);
    name[len] = '\0';
    const cc_knob_info *k = cc_knob_info_find(name);
    if (k == NULL) {
        cc_cli_usage_error(cmd, "--knob: '%s' is not one of the agent's knobs (docs/agent.md)",
                           name);
        return -1;
    }
    if (k->kind == CC_KNOB_KIND_AGENT) {
        cc_cli_usage_error(cmd, "--knob: %s is set by the agent for its children, not on the "
                                "command line", name);
        return -1;
    }
    for (size_t i = 0; i < cc_ngiven; i++) {
        if (cc_given[i].knob == k) {
            cc_given[i].value = eq + 1;
            return 0;
        }
    }
    if (cc_ngiven == CC_CLI_MAX_KNOBS) { /* not reached: the table has fewer knobs */
        cc_cli_usage_error(cmd, "--knob given for more than %d variables", CC_CLI_MAX_KNOBS);
        return -1;
    }
    cc_given[cc_ngiven].knob = k;
    cc_given[cc_ngiven].value = eq + 1;
    cc_ngiven++;
    return 0;
}

int cc_cli_knobs_env(char *err, size_t errlen)
{
    for (size_t i = 0; i < cc_knob_info_count(); i++) {
        const cc_knob_info *k = cc_knob_info_at(i);
        const char *given = cc_given_value(k);
        const char *inherited = getenv(k->name);
        int rc = 0;
        if (given != NULL && given[0] != '\0') {
            rc = setenv(k->name, given, 1);
        } else if (given != NULL || k->kind != CC_KNOB_KIND_USER) {
            if (inherited != NULL && given == NULL && k->kind == CC_KNOB_KIND_AID) {
                cc_cli_error("%s=%s in the environment is not passed on: a measuring aid is set "
                             "for a run with --knob %s=VALUE", k->name, inherited, k->name);
            }
            rc = unsetenv(k->name);
        }
        if (rc != 0) {
            snprintf(err, errlen, "cannot set %s: %s", k->name, strerror(errno));
            return -1;
        }
    }
    return 0;
}
