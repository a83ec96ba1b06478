/* Minimal PTX text reader: the module's .version and .target, and every .entry with its launch
 * directives (.maxntid, .reqntid, .minnctapersm, .maxnreg, .reqnctapercluster). Works on text
 * that need not be NUL-terminated. */
#ifndef CUCHECK_SYMBOLS_PTX_H
#define CUCHECK_SYMBOLS_PTX_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_ptx_module {
    uint32_t version_major, version_minor; /* 0.0 if no .version line */
    char target[32];                       /* "sm_90a" (first .target operand), "" if none */
    uint32_t entries;
} cc_ptx_module;

typedef struct cc_ptx_entry {
    const char *name; /* points into the text; name_len bytes, not NUL-terminated */
    size_t name_len;
    uint32_t maxntid[3], reqntid[3], cluster[3];
    uint32_t minnctapersm, maxnreg;
} cc_ptx_entry;

typedef int (*cc_ptx_entry_cb)(const cc_ptx_entry *e, void *user);

/* 1 if the text looks like PTX (a .version directive near the start). */
int cc_ptx_is_ptx(const void *text, size_t len);
/* Scan the module; calls cb per .entry (may be NULL). Returns 0 (PTX text has no fatal errors
 * at this level of reading). */
int cc_ptx_scan(const void *text, size_t len, cc_ptx_module *mod, cc_ptx_entry_cb cb, void *user);

#endif
