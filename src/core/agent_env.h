/* The environment contract between the cucheck CLI and the injected agent (and its children,
 * which inherit it). The CLI sets these; the agent reads them at load time. */
#ifndef CUCHECK_CORE_AGENT_ENV_H
#define CUCHECK_CORE_AGENT_ENV_H

#define CC_ENV_TOOL "CUCHECK_TOOL"                 /* registry name of the tool to run */
#define CC_DEFAULT_TOOL "run"                      /* the tool when CUCHECK_TOOL is unset */
#define CC_ENV_OPTIONS "CUCHECK_OPTIONS"           /* encoded tool options (core/options.h) */
#define CC_ENV_REPORT "CUCHECK_REPORT"             /* JSON Lines report path pattern (%p, %q{VAR}) */
#define CC_ENV_RUN_ID "CUCHECK_RUN_ID"             /* the run's id, in every report header */
#define CC_ENV_RECORD "CUCHECK_RECORD"             /* .cuevt path pattern; unset: no recording */
#define CC_ENV_SUPPRESSIONS "CUCHECK_SUPPRESSIONS" /* suppressions file */
#define CC_ENV_PRINT_LIMIT "CUCHECK_PRINT_LIMIT"   /* most findings printed live per process */
#define CC_ENV_QUIET "CUCHECK_QUIET"               /* "1": the agent prints nothing live */
#define CC_ENV_AGENT "CUCHECK_AGENT"               /* absolute path of libcucheck_agent.so */
#define CC_ENV_PATCHES "CUCHECK_PATCHES"           /* override: patch fatbin file (debugging) */
/* Set inside the checked process by a test runner's plugin (python/cucheck/pytest_plugin.py) to
 * the test that is running ("" between tests); the reporter reads it when a finding is made,
 * never per event, and the finding carries it as its "test". */
#define CC_ENV_CURRENT_TEST "CUCHECK_CURRENT_TEST"

#endif
