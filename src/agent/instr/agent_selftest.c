/* cucheck_agent_selftest: checks the device patch fatbin the agent embeds, without a GPU.
 *   cucheck_agent_selftest            checks the image linked into this program (the same
 *                                      cucheck_patches_embed library the agent links)
 *   cucheck_agent_selftest FILE       finds the fatbin inside FILE (e.g. libcucheck_agent.so)
 * Passes (exit 0) when the image is a well-formed fatbin holding an uncompressed sm_90 ELF cubin
 * that defines every patch function. Exit 1 on failure, 77 when built without patches. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "embedded_patches.h"
#include "patch_records.h"

#define FATBIN_MAGIC 0xBA55ED50u
#define FATBIN_KIND_PTX 1u
#define FATBIN_KIND_ELF 2u
#define FATBIN_FLAG_COMPRESSED 0x2000u
#define EM_CUDA 190u

static uint16_t rd16(const unsigned char *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const unsigned char *p) { return (uint32_t)rd16(p) | (uint32_t)rd16(p + 2) << 16; }
static uint64_t rd64(const unsigned char *p) { return (uint64_t)rd32(p) | (uint64_t)rd32(p + 4) << 32; }

static int contains(const unsigned char *hay, size_t n, const char *needle)
{
    size_t m = strlen(needle) + 1; /* with the terminating NUL of the ELF string table */
    for (size_t i = 0; m <= n && i <= n - m; i++) {
        if (memcmp(hay + i, needle, m) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Checks one ELF cubin for sm_90 and the patch symbols. */
static int check_sm90_elf(const unsigned char *elf, uint64_t size)
{
    if (size < 64 || memcmp(elf, "\177ELF", 4) != 0 || elf[4] != 2 /* ELFCLASS64 */) {
        fprintf(stderr, "selftest: sm_90 entry is not a 64-bit ELF image\n");
        return -1;
    }
    uint16_t machine = rd16(elf + 18);
    uint32_t flags = rd32(elf + 48);
    /* The SM lives in e_flags bits 8..15 (ABI version >= 8) or bits 0..7 (older). */
    unsigned sm = elf[8] >= 8 ? (flags >> 8) & 0xffu : flags & 0xffu;
    if (machine != EM_CUDA || sm != 90) {
        fprintf(stderr, "selftest: ELF e_machine=%u sm=%u, expected %u and 90\n", machine, sm,
                EM_CUDA);
        return -1;
    }
    const char *names[] = {CC_PATCH_FN_MC_GLOBAL, CC_PATCH_FN_MC_SHARED, CC_PATCH_FN_MC_LOCAL,
                           CC_PATCH_FN_MC_MEMCPY_ASYNC, CC_PATCH_FN_MC_DEVICE_MALLOC,
                           CC_PATCH_FN_MC_DEVICE_FREE, CC_PATCH_FN_SC_GLOBAL,
                           CC_PATCH_FN_PROGRESS_ENTER, CC_PATCH_FN_PROGRESS_EXIT,
                           CC_PATCH_FN_SY_BARRIER, CC_PATCH_FN_SY_SYNCWARP,
                           CC_PATCH_FN_SY_SYNCWARP_RELEASE, CC_PATCH_FN_SY_SHFL,
                           CC_PATCH_FN_SY_BLOCK_EXIT, CC_PATCH_FN_FLOOR_PC,
                           CC_PATCH_FN_IC_GLOBAL};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!contains(elf, (size_t)size, names[i])) {
            fprintf(stderr, "selftest: sm_90 cubin lacks patch function %s\n", names[i]);
            return -1;
        }
    }
    return 0;
}

/* Walks a fatbin starting at img (n bytes available). 0 if it passes. */
static int check_fatbin(const unsigned char *img, size_t n)
{
    if (n < 16 || rd32(img) != FATBIN_MAGIC) {
        fprintf(stderr, "selftest: no fatbin magic\n");
        return -1;
    }
    uint16_t header_size = rd16(img + 6);
    uint64_t fat_size = rd64(img + 8);
    if (header_size < 16 || header_size > n || fat_size > n - header_size) {
        fprintf(stderr, "selftest: fatbin header sizes out of bounds\n");
        return -1;
    }
    const unsigned char *p = img + header_size;
    const unsigned char *end = p + fat_size;
    int found_sm90 = 0, found_ptx = 0, entries = 0;
    while (p < end) {
        if ((size_t)(end - p) < 48) {
            fprintf(stderr, "selftest: truncated fatbin entry header\n");
            return -1;
        }
        uint16_t kind = rd16(p);
        uint32_t entry_header = rd32(p + 4);
        uint64_t payload = rd64(p + 8);
        uint32_t arch = rd32(p + 28);
        uint64_t flags = rd64(p + 40);
        if (entry_header < 48 || entry_header > (size_t)(end - p) ||
            payload > (size_t)(end - p) - entry_header) {
            fprintf(stderr, "selftest: fatbin entry %d out of bounds\n", entries);
            return -1;
        }
        printf("entry %d: %s sm_%u, %llu bytes%s\n", entries, kind == FATBIN_KIND_ELF ? "ELF"
               : kind == FATBIN_KIND_PTX ? "PTX" : "other", arch, (unsigned long long)payload,
               (flags & FATBIN_FLAG_COMPRESSED) ? " (compressed)" : "");
        if (kind == FATBIN_KIND_PTX) {
            found_ptx = 1;
        }
        if (kind == FATBIN_KIND_ELF && arch == 90) {
            if (flags & FATBIN_FLAG_COMPRESSED) {
                fprintf(stderr, "selftest: sm_90 cubin is compressed\n");
                return -1;
            }
            if (check_sm90_elf(p + entry_header, payload) != 0) {
                return -1;
            }
            found_sm90 = 1;
        }
        entries++;
        p += entry_header + payload;
    }
    if (!found_sm90) {
        fprintf(stderr, "selftest: no sm_90 ELF entry in the fatbin\n");
        return -1;
    }
    if (!found_ptx) {
        fprintf(stderr, "selftest: no PTX entry (for GPUs newer than the listed SMs)\n");
        return -1;
    }
    return 0;
}

static int check_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "selftest: cannot open %s\n", path);
        return 1;
    }
    /* Grown by hand: this program links no cucheck library (core/grow.h is not in it). */
    size_t cap = 1 << 20, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf != NULL && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *bigger = cap < ((size_t)1 << 30) ? realloc(buf, cap * 2) : NULL;
            if (bigger == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = bigger;
            cap *= 2;
        }
    }
    fclose(f);
    if (buf == NULL) {
        fprintf(stderr, "selftest: %s is too large or out of memory\n", path);
        return 1;
    }
    int rc = 1;
    for (size_t off = 0; off + 16 <= n; off += 8) { /* the embedded image is 16-byte aligned */
        if (rd32(buf + off) == FATBIN_MAGIC && rd16(buf + off + 4) == 1) {
            printf("fatbin at offset %zu of %s\n", off, path);
            rc = check_fatbin(buf + off, n - off) == 0 ? 0 : 1;
            break;
        }
    }
    if (rc != 0) {
        fprintf(stderr, "selftest: no valid patch fatbin found in %s\n", path);
    }
    free(buf);
    return rc;
}

int main(int argc, char **argv)
{
    if (cc_patches_fatbin_size == 0) {
        printf("built without device patches (no nvcc or Compute Sanitizer headers)\n");
        return 77;
    }
    if (argc > 2) {
        fprintf(stderr, "usage: %s [FILE]\n", argv[0]);
        return 2;
    }
    if (argc == 2) {
        return check_file(argv[1]);
    }
    printf("embedded fatbin: %zu bytes\n", cc_patches_fatbin_size);
    return check_fatbin(cc_patches_fatbin, cc_patches_fatbin_size) == 0 ? 0 : 1;
}
