/* cucheck public findings model: what a tool reports. A finding says what went wrong (kind,
 * severity, message), where on the device (kernel, pc, file:line, block, thread, address, size,
 * access), where on the host (a call stack), and which other places relate to it (the other side
 * of a race, the allocation site, ...), and which test was running (under a test runner's
 * plugin). All strings and arrays are borrowed by the reporter, which
 * copies what it keeps. */
#ifndef CUCHECK_FINDING_H
#define CUCHECK_FINDING_H

#include <stdint.h>
#include "cucheck/event.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum cc_severity {
    CC_SEV_INFO = 0,
    CC_SEV_WARNING = 1,
    CC_SEV_ERROR = 2,
} cc_severity;

typedef enum cc_access {
    CC_ACCESS_NONE = 0,
    CC_ACCESS_READ = 1,
    CC_ACCESS_WRITE = 2,
    CC_ACCESS_ATOMIC = 3,
} cc_access;

typedef enum cc_mem_space {
    CC_SPACE_NONE = 0,
    CC_SPACE_GLOBAL = 1,
    CC_SPACE_SHARED = 2,
    CC_SPACE_LOCAL = 3,
    CC_SPACE_GENERIC = 4,
    CC_SPACE_HOST = 5, /* an API-level access: copy, memset, free */
} cc_mem_space;

/* Which fields of a cc_device_loc are meaningful. */
#define CC_DLOC_KERNEL 0x01u  /* kernel, launch_id, stream */
#define CC_DLOC_PC 0x02u      /* pc */
#define CC_DLOC_LINE 0x04u    /* file, line */
#define CC_DLOC_THREAD 0x08u  /* block, thread */
#define CC_DLOC_ADDRESS 0x10u /* address, size, access, space */

typedef struct cc_device_loc {
    uint32_t valid;       /* CC_DLOC_* */
    const char *kernel;   /* the name to show: demangled where possible */
    const char *kernel_mangled; /* the name the binary gives, when kernel is its demangled form
                                 * (NULL when they are the same: an extern "C" kernel) */
    uint64_t launch_id;
    uint64_t stream;
    uint64_t pc;          /* offset from the start of the kernel's code */
    const char *file;
    uint32_t line;
    uint32_t block[3];
    uint32_t thread[3];
    uint64_t address;
    uint32_t size;        /* bytes accessed */
    uint32_t access;      /* cc_access */
    uint32_t space;       /* cc_mem_space */
} cc_device_loc;

/* A place related to a finding: "allocation", "previous access", "launch", ... */
typedef struct cc_related {
    const char *role;     /* short lower-case role name */
    const char *message;  /* one line, may be NULL */
    int has_device;
    cc_device_loc device;
    uint32_t nframes;
    const cc_stack_frame *frames; /* host stack, innermost first */
} cc_related;

typedef struct cc_finding {
    const char *tool;     /* "memcheck", "streamcheck", "run", ... */
    const char *kind;     /* stable kebab-case id: "invalid-global-write", "api-error", "race" */
    uint32_t severity;    /* cc_severity */
    const char *message;  /* one line, human readable */
    int has_device;
    cc_device_loc device;
    uint32_t nframes;
    const cc_stack_frame *frames; /* host stack of the launch or API call, innermost first */
    uint32_t nrelated;
    const cc_related *related;
    uint64_t count;       /* occurrences this finding stands for; 0 is read as 1 */
    const char *test;     /* the test that was running when the finding was made (a pytest node
                           * id: "tests/test_model.py::test_fwd"); NULL outside a test runner */
} cc_finding;

const char *cc_severity_name(uint32_t sev);
const char *cc_access_name(uint32_t access);
const char *cc_mem_space_name(uint32_t space);

#ifdef __cplusplus
}
#endif
#endif
