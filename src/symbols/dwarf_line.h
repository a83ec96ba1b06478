/* A bounds-checked DWARF line-number program reader (versions 2 to 5), as found in a cubin's
 * .debug_line (SASS offsets -> CUDA source lines) and .nv_debug_line_sass (SASS offsets -> PTX
 * lines). It runs the state machine and hands every emitted row to a callback, with NVIDIA's
 * inlined-call information (vendor opcode DW_LNE 0x90) as row indices within the sequence. */
#ifndef CUCHECK_SYMBOLS_DWARF_LINE_H
#define CUCHECK_SYMBOLS_DWARF_LINE_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_dwarf_row {
    uint64_t address;
    uint32_t line;
    uint32_t column;
    const char *file;         /* file name (may be NULL: index outside the table) */
    const char *dir;          /* its directory or NULL */
    uint32_t file_index;
    int end_sequence;
    uint64_t sequence;        /* 0-based sequence counter over the whole section */
    uint64_t set_address_at;  /* section offset of the last DW_LNE_set_address operand, or
                                 UINT64_MAX (relocations there say which function it is) */
    /* Inlining (nvcc's DW_LNE 0x90 [inlined_at, name offset], in force until the next one or
     * the end of the sequence): the row's code was inlined into the call at row inlined_at of
     * the same sequence. Rows are counted from 1 in each sequence, every emitted row (several
     * may share an address) included. inlined_at is 0 when not inlined, and also when the
     * program named a row that is not an earlier one of this sequence (corrupt input). */
    uint64_t row_index;       /* 1-based index of this row within its sequence */
    uint64_t inlined_at;      /* 0, or the call site's row_index (always < row_index) */
    const char *inlined_func; /* the inlined function's (mangled) name from .debug_str, or NULL */
} cc_dwarf_row;

/* Return non-zero to stop. */
typedef int (*cc_dwarf_row_cb)(const cc_dwarf_row *row, void *user);

/* Run every unit of a .debug_line-style section. line_str: the .debug_line_str section for
 * DWARF 5 (may be NULL), str: .debug_str (may be NULL). 0 ok, -1 with err (offset inside). */
int cc_dwarf_line_run(const unsigned char *sec, size_t size, const unsigned char *line_str,
                      size_t line_str_size, const unsigned char *str, size_t str_size,
                      cc_dwarf_row_cb cb, void *user, char *err, size_t errlen);

#endif
