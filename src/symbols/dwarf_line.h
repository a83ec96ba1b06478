/* A bounds-checked DWARF line-number program reader (versions 2 to 5), as found in a cubin's
 * .debug_line (SASS offsets -> CUDA source lines) and .nv_debug_line_sass (SASS offsets -> PTX
 * lines). It runs the state machine and hands every emitted row to a callback. */
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
} cc_dwarf_row;

/* Return non-zero to stop. */
typedef int (*cc_dwarf_row_cb)(const cc_dwarf_row *row, void *user);

/* Run every unit of a .debug_line-style section. line_str: the .debug_line_str section for
 * DWARF 5 (may be NULL), str: .debug_str (may be NULL). 0 ok, -1 with err (offset inside). */
int cc_dwarf_line_run(const unsigned char *sec, size_t size, const unsigned char *line_str,
                      size_t line_str_size, const unsigned char *str, size_t str_size,
                      cc_dwarf_row_cb cb, void *user, char *err, size_t errlen);

#endif
