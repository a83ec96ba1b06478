/* The pre-check of event-stream inputs (input_check.h). */
#include "cli/input_check.h"
#include "core/input_file.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define CHECK_BYTES 65536
#define CUEVT_PREFIX "CUEVT"

static int is_binary_byte(unsigned char c)
{
    return (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' && c != '\v') ||
           c == 0x7f;
}

int cc_cli_check_event_input(const char *path, char *err, size_t errlen)
{
    char why[256];
    uint64_t size;
    int fd = cc_input_open(path, &size, why, sizeof why); /* never blocks on a FIFO */
    if (fd < 0) {
        return 0;
    }
    static unsigned char buf[CHECK_BYTES];
    size_t have = 0;
    while (have < sizeof buf) {
        ssize_t n = read(fd, buf + have, sizeof buf - have);
        if (n <= 0) {
            break;
        }
        have += (size_t)n;
    }
    close(fd);
    size_t k = have < strlen(CUEVT_PREFIX) ? have : strlen(CUEVT_PREFIX);
    if (have > 0 && memcmp(buf, CUEVT_PREFIX, k) == 0) {
        return 0; /* looks like a recording: the binary reader checks the rest */
    }
    for (size_t i = 0; i < have; i++) {
        if (is_binary_byte(buf[i])) {
            snprintf(err, errlen,
                     "offset %zu: not a .cuevt recording (no CUEVT magic at offset 0) and not a "
                     "text scenario (binary byte 0x%02x)",
                     i, buf[i]);
            return -1;
        }
    }
    return 0;
}
