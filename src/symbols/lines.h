/* Device line tables: (kernel, pc offset) -> file:line for a cubin built with -lineinfo or -G.
 * Source lines come from .debug_line, PTX lines from .nv_debug_line_sass; in both, each sequence
 * starts with DW_LNE_set_address 0 and a relocation on that operand names the kernel, so
 * addresses are offsets into the kernel's .text section (what the Sanitizer API reports as
 * pc - function start).
 * Inlining: nvcc records, for code inlined from another function, the chain of call sites
 * (DW_LNE 0x90, see dwarf_line.h). A row reports the innermost frame of that chain that is not
 * in a CUDA toolkit header (toolkit_path.h), so that a __syncwarp() inlined from
 * sm_30_intrinsics.hpp is reported at the user's line that calls it, while a user's own
 * __forceinline__ helper keeps its own line; when every frame is a toolkit header (a cub kernel)
 * the innermost is reported. */
#ifndef CUCHECK_SYMBOLS_LINES_H
#define CUCHECK_SYMBOLS_LINES_H

#include <stddef.h>
#include <stdint.h>

typedef enum cc_line_kind {
    CC_LINES_SOURCE = 0, /* .debug_line: CUDA source file and line */
    CC_LINES_PTX = 1,    /* .nv_debug_line_sass: line in the embedded PTX (.nv_debug_ptx_txt) */
} cc_line_kind;

typedef struct cc_line_row {
    const char *kernel;  /* mangled name, NULL if the sequence could not be attributed */
    uint64_t start, end; /* [start, end) pc offsets */
    const char *file;    /* points into the cubin; NULL if unknown ("<ptx>" for PTX lines) */
    const char *dir;     /* may be NULL */
    uint32_t line;
    /* The innermost frame (where the instruction's code was written), set only when the
     * reported file/dir/line above is an outer frame of its inline chain: NULL, NULL, 0
     * otherwise (inlined_file may also be NULL when that frame's file is unknown). */
    const char *inlined_file;
    const char *inlined_dir;
    uint32_t inlined_line;
    uint32_t inline_depth; /* call sites above the innermost frame: 0 = not inlined code */
} cc_line_row;

typedef struct cc_line_table cc_line_table;

/* Parse once; the cubin buffer must outlive the table. NULL with err if the cubin has no such
 * line information or it is malformed. */
cc_line_table *cc_line_table_open(const void *cubin, size_t size, cc_line_kind kind, char *err,
                                  size_t errlen);
size_t cc_line_table_count(const cc_line_table *t);
const cc_line_row *cc_line_table_row(const cc_line_table *t, size_t i); /* sorted by kernel, pc */
/* 1 found (file may still be NULL), 0 no row covers pc. */
int cc_line_table_lookup(const cc_line_table *t, const char *kernel, uint64_t pc_offset,
                         const cc_line_row **row);
void cc_line_table_free(cc_line_table *t);

/* One-shot convenience: 1 found, 0 not found, -1 no line info / malformed.
 * *file points into the cubin (the file name as recorded, without directory). */
int cc_sym_line_lookup(const void *cubin, size_t size, const char *kernel, uint64_t pc_offset,
                       const char **file, uint32_t *line);

#endif
