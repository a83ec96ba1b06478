/* A first look at an event-stream input before the reader opens it: a regular file that lacks
 * the .cuevt magic but holds binary bytes is neither a recording nor a text scenario, and is
 * rejected with the offset of the first binary byte (instead of a text parse error quoting
 * garbage). (Messages are made safe to print by cc_cli_error itself: cli/diag.c.) */
#ifndef CUCHECK_CLI_INPUT_CHECK_H
#define CUCHECK_CLI_INPUT_CHECK_H

#include <stddef.h>

/* 0 if path may be read as events; -1 with "offset N: ..." in err when it is binary junk.
 * Files that cannot be opened or are not regular pass (the reader reports those). */
int cc_cli_check_event_input(const char *path, char *err, size_t errlen);

#endif
