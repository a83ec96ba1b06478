/* Locating libcucheck_agent.so next to the cucheck executable, in the install tree, or where
 * $CUCHECK_AGENT says (agent_locate.h). */
#include "cli/agent_locate.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/agent_env.h"

#define AGENT_NAME "libcucheck_agent.so"
/* The agent's install folder relative to the installed executable's (cmake/Install.cmake). */
#ifndef CUCHECK_AGENT_RELDIR
#define CUCHECK_AGENT_RELDIR "../lib/cucheck"
#endif

static int is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Directory of the running executable, without a trailing slash; 0 on success. */
static int exe_dir(char *out, size_t outlen)
{
    char buf[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) {
        return -1;
    }
    buf[n] = '\0';
    char *slash = strrchr(buf, '/');
    if (!slash) {
        return -1;
    }
    *slash = '\0';
    if (strlen(buf) + 1 > outlen) {
        return -1;
    }
    strcpy(out, buf[0] ? buf : "/");
    return 0;
}

static int take(const char *candidate, char *out, size_t outlen)
{
    char real[PATH_MAX];
    if (!realpath(candidate, real) || strlen(real) + 1 > outlen) {
        return -1;
    }
    strcpy(out, real);
    return 0;
}

int cc_cli_locate_agent(char *out, size_t outlen, char *err, size_t errlen)
{
    const char *env = getenv(CC_ENV_AGENT);
    if (env && *env) {
        struct stat st;
        if (stat(env, &st) != 0) {
            snprintf(err, errlen, "%s=%s: %s", CC_ENV_AGENT, env, strerror(errno));
            return -1;
        }
        if (!S_ISREG(st.st_mode)) {
            snprintf(err, errlen, "%s=%s: not a regular file", CC_ENV_AGENT, env);
            return -1;
        }
        if (take(env, out, outlen) != 0) {
            snprintf(err, errlen, "%s=%s: cannot resolve the path", CC_ENV_AGENT, env);
            return -1;
        }
        return 0;
    }
    char dir[PATH_MAX];
    if (exe_dir(dir, sizeof dir) != 0) {
        snprintf(err, errlen, "cannot find the agent library: the location of the cucheck "
                              "executable is unknown; set %s", CC_ENV_AGENT);
        return -1;
    }
    char build[PATH_MAX + sizeof "/src/agent/" + sizeof AGENT_NAME];
    char install[PATH_MAX + sizeof CUCHECK_AGENT_RELDIR + sizeof AGENT_NAME + 2];
    snprintf(build, sizeof build, "%s/src/agent/%s", dir, AGENT_NAME);
    snprintf(install, sizeof install, "%s/" CUCHECK_AGENT_RELDIR "/%s", dir, AGENT_NAME);
    if (is_file(build) && take(build, out, outlen) == 0) {
        return 0;
    }
    if (is_file(install) && take(install, out, outlen) == 0) {
        return 0;
    }
    snprintf(err, errlen, "cannot find the agent library %s (looked in %s/src/agent and "
                          "%s/" CUCHECK_AGENT_RELDIR "); build it or set %s",
             AGENT_NAME, dir, dir, CC_ENV_AGENT);
    return -1;
}
