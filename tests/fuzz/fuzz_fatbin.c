/* libFuzzer target: the fatbin container parser on arbitrary bytes, with every entry's payload
 * extracted (and decompressed when the build has the codec), SASS payloads read as cubins and
 * PTX payloads scanned. Entries must lie inside the input. */
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/binary.h"
#include "symbols/cubin.h"
#include "symbols/fatbin.h"
#include "symbols/ptx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct ctx {
    const uint8_t *data;
    size_t size, sum;
} ctx;

static int on_entry(const cc_fatbin_entry *e, void *user)
{
    ctx *c = user;
    if (e->payload < c->data || e->payload + e->stored_size > c->data + c->size)
        abort();
    char err[160], arch[32];
    cc_fatbin_arch_name(e, arch, sizeof arch);
    unsigned char *buf;
    size_t n;
    if (cc_fatbin_payload(e, &buf, &n, err, sizeof err) == 0) {
        c->sum += n;
        free(buf);
    }
    return 0;
}

static int on_kernel(const cc_kernel_info *k, void *user)
{
    ctx *c = user;
    c->sum += k->regs;
    return 0;
}

static int on_ptx(const cc_ptx_entry *e, void *user)
{
    ctx *c = user;
    c->sum += e->name_len;
    return 0;
}

static int on_image(const cc_code_image *img, void *user)
{
    ctx *c = user;
    char err[160];
    cc_ptx_module m;
    if (!img->data)
        return 0;
    if (img->kind == 2)
        cc_cubin_kernels(img->data, img->size, on_kernel, c, err, sizeof err);
    else if (img->kind == 1)
        cc_ptx_scan(img->data, img->size, &m, on_ptx, c);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    ctx c = {data, size, 0};
    cc_fatbin_iter(data, size, on_entry, &c, err, sizeof err);
    cc_binary_scan_mem(data, size, "fuzz", on_image, &c, NULL, err, sizeof err);
    return 0;
}
