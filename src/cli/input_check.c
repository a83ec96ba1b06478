/* The pre-check of event-stream inputs and message sanitizing (input_check.h). */
#include "cli/input_check.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return 0;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        close(fd);
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

void cc_cli_printable(char *s)
{
    for (unsigned char *p = (unsigned char *)s; p && *p; p++) {
        if (is_binary_byte(*p) || *p == '\n' || *p == '\r') {
            *p = '?';
        }
    }
}
