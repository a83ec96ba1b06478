/* libFuzzer target: the ELF reader and everything built on it, on arbitrary bytes: cubin facts,
 * kernel resources, both device line tables with lookups, the file-kind scan (host ELF,
 * archive, PTX), and the DWARF line-program reader run directly over the input. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/binary.h"
#include "symbols/cubin.h"
#include "symbols/dwarf_line.h"
#include "symbols/lines.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int touch_kernel(const cc_kernel_info *k, void *user)
{
    size_t *sum = user;
    *sum += strlen(k->name) + k->regs + k->static_smem;
    return 0;
}

static int touch_row(const cc_dwarf_row *r, void *user)
{
    size_t *sum = user;
    *sum += r->line + (r->file ? strlen(r->file) : 0) + (r->dir ? strlen(r->dir) : 0);
    return 0;
}

static int touch_image(const cc_code_image *img, void *user)
{
    size_t *sum = user;
    *sum += img->size + (img->member ? strlen(img->member) : 0);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    size_t sum = 0;
    cc_cubin_info ci;
    if (cc_cubin_inspect(data, size, &ci, err, sizeof err) == 0) {
        if (ci.ptxas_options)
            sum += strlen(ci.ptxas_options);
        cc_cubin_kernels(data, size, touch_kernel, &sum, err, sizeof err);
        for (int kind = 0; kind < 2; kind++) {
            cc_line_table *t = cc_line_table_open(data, size, (cc_line_kind)kind, err, sizeof err);
            for (size_t i = 0; i < cc_line_table_count(t); i++) {
                const cc_line_row *r = cc_line_table_row(t, i), *hit = NULL;
                if (r->kernel && cc_line_table_lookup(t, r->kernel, r->start, &hit) != 1)
                    abort(); /* a row's own start must be found */
                if (hit && hit->file)
                    sum += strlen(hit->file);
            }
            cc_line_table_free(t);
        }
    }
    cc_binary_scan_mem(data, size, "fuzz", touch_image, &sum, NULL, err, sizeof err);
    cc_dwarf_line_run(data, size, data, size, NULL, 0, touch_row, &sum, err, sizeof err);
    return sum == 1 ? 0 : 0;
}
