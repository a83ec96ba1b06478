/* Turning one host return address into frame text, once per distinct stack (never on the hot
 * path): function+offset and file:line from DWARF through elfutils' libdw (libdwfl) when the
 * build found it, else function+offset from the dynamic symbol table (dladdr). */
#ifndef CUCHECK_AGENT_HOST_SYMBOLIZE_H
#define CUCHECK_AGENT_HOST_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

/* Writes the frame text of return address pc into out ("main+0x1c (a.cu:10)",
 * "cublasSgemm_v2+0x2f in libcublas.so.13", "libfoo.so+0x1234"). Returns 1 if the frame
 * belongs to CUDA or cucheck itself (driver, runtime, Sanitizer, agent), 0 otherwise. */
int cc_host_symbolize(uint64_t pc, char *out, size_t outlen);
/* "libdw" or "dladdr". */
const char *cc_host_symbolizer_name(void);

#endif
