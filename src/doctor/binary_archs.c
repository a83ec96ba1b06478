/* Kernel images inside a file, for doctor's verdicts: reads the .nv_fatbin (and
 * __nv_relfatbin) sections of a host executable or shared library, a bare .fatbin, or a cubin,
 * with the src/symbols readers, and keeps one cc_doc_image per distinct (kind, arch, variant,
 * PTX ISA). Only entry headers are read: nothing is decompressed. */
#include "doctor/probe.h"
#include "symbols/cubin.h"
#include "symbols/elf.h"
#include "symbols/fatbin.h"
#include "core/input_file.h"

#include <stdio.h>
#include <string.h>

static void add_image(cc_doc_archs *a, const cc_doc_image *img)
{
    for (int i = 0; i < a->n; i++)
        if (a->img[i].is_ptx == img->is_ptx && a->img[i].arch == img->arch &&
            a->img[i].suffix == img->suffix && a->img[i].ptx_major == img->ptx_major &&
            a->img[i].ptx_minor == img->ptx_minor)
            return;
    if (a->n >= CC_DOC_MAX_IMAGES) {
        a->truncated = 1;
        return;
    }
    a->img[a->n++] = *img;
}

static int on_entry(const cc_fatbin_entry *e, void *user)
{
    cc_doc_archs *a = user;
    if (e->kind != CC_FATBIN_KIND_PTX && e->kind != CC_FATBIN_KIND_ELF)
        return 0;
    cc_doc_image img;
    memset(&img, 0, sizeof img);
    img.is_ptx = e->kind == CC_FATBIN_KIND_PTX;
    img.arch = (uint16_t)(e->arch > 0xffff ? 0xffff : e->arch);
    img.suffix = e->arch_suffix;
    if (img.is_ptx) {
        img.ptx_major = e->version_major;
        img.ptx_minor = e->version_minor;
    }
    a->has_device_code = 1;
    add_image(a, &img);
    return 0;
}

static void scan_fatbin(const unsigned char *data, size_t size, cc_doc_archs *a)
{
    char err[160];
    if (cc_fatbin_iter(data, size, on_entry, a, err, sizeof err) < 0 && !a->error[0])
        snprintf(a->error, sizeof a->error, "fatbin partly unreadable: %s", err);
}

static void scan_buffer(const unsigned char *data, size_t size, cc_doc_archs *a)
{
    char err[160];
    if (cc_fatbin_is_fatbin(data, size)) {
        scan_fatbin(data, size, a);
        return;
    }
    if (!cc_elf_is_elf(data, size))
        return; /* not a binary: no device code */
    if (cc_cubin_is_cubin(data, size)) {
        cc_cubin_info ci;
        if (cc_cubin_inspect(data, size, &ci, err, sizeof err) != 0) {
            snprintf(a->error, sizeof a->error, "malformed cubin: %s", err);
            return;
        }
        cc_doc_image img;
        memset(&img, 0, sizeof img);
        img.arch = (uint16_t)ci.arch;
        img.suffix = ci.arch_suffix;
        a->has_device_code = 1;
        add_image(a, &img);
        return;
    }
    cc_elf elf;
    if (cc_elf_open(&elf, data, size, err, sizeof err) != 0) {
        snprintf(a->error, sizeof a->error, "malformed ELF: %s", err);
        return;
    }
    static const char *const sections[] = {".nv_fatbin", "__nv_relfatbin"};
    for (unsigned i = 0; i < sizeof sections / sizeof sections[0]; i++) {
        cc_elf_section sec;
        if (cc_elf_section_by_name(&elf, sections[i], &sec) == 0 && sec.data && sec.size)
            scan_fatbin(sec.data, (size_t)sec.size, a);
    }
}

void cc_doc_scan_archs(const char *path, cc_doc_archs *a)
{
    memset(a, 0, sizeof *a);
    a->scanned = 1;
    cc_input_map m; /* a regular file only: a FIFO or a device is refused, never read */
    if (cc_input_map_open(path, &m, a->error, sizeof a->error) != 0)
        return;
    if (m.size)
        scan_buffer(m.data, m.size, a);
    cc_input_map_close(&m);
    cc_doc_sort_images(a->img, (size_t)a->n);
}
