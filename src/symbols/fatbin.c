/* Fatbin container walk: container headers, entry headers (kind, arch, variant, flags,
 * compression, sizes, embedded names and options) and payload extraction. Layout notes in
 * fatbin.h and docs/inspect.md. Every read is checked against the buffer. */
#include "symbols/fatbin.h"
#include "symbols/elf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int cc_fatbin_is_fatbin(const void *data, size_t size)
{
    return data && size >= CC_FATBIN_HEADER_SIZE && cc_le32(data) == CC_FATBIN_MAGIC;
}

static cc_compression compression_of(uint64_t flags)
{
    int lz4 = (flags & CC_FATBIN_FLAG_LZ4) != 0, zstd = (flags & CC_FATBIN_FLAG_ZSTD) != 0;
    if (lz4 && zstd)
        return CC_COMPRESS_UNKNOWN;
    return lz4 ? CC_COMPRESS_LZ4 : zstd ? CC_COMPRESS_ZSTD : CC_COMPRESS_NONE;
}

const char *cc_compression_name(cc_compression c)
{
    switch (c) {
    case CC_COMPRESS_NONE: return "none";
    case CC_COMPRESS_LZ4: return "lz4";
    case CC_COMPRESS_ZSTD: return "zstd";
    default: return "unknown";
    }
}

void cc_fatbin_arch_name(const cc_fatbin_entry *e, char *buf, size_t len)
{
    const char *prefix = e->kind == CC_FATBIN_KIND_PTX ? "compute" : "sm";
    if (e->arch_suffix)
        snprintf(buf, len, "%s_%u%c", prefix, e->arch, e->arch_suffix);
    else
        snprintf(buf, len, "%s_%u", prefix, e->arch);
}

/* A (offset, length) string inside the entry header; NULL if absent or out of range. */
static const char *header_string(const unsigned char *h, uint32_t hsize, uint32_t off,
                                 uint32_t len, size_t *outlen)
{
    *outlen = 0;
    if (off == 0 || len == 0 || off >= hsize || len > hsize - off)
        return NULL;
    const char *s = (const char *)h + off;
    size_t n = strnlen(s, len);
    while (n > 0 && s[n - 1] == ' ')
        n--;
    *outlen = n;
    return n ? s : NULL;
}

/* Decode one entry header at h (avail bytes to the container end). 0 ok, -1 with err. */
static int decode_entry(const unsigned char *h, uint64_t avail, cc_fatbin_entry *e, char *err,
                        size_t errlen)
{
    if (avail < CC_FATBIN_ENTRY_MIN_SIZE) {
        snprintf(err, errlen, "truncated entry header (%llu bytes left)", (unsigned long long)avail);
        return -1;
    }
    e->kind = cc_le16(h);
    e->header_size = cc_le32(h + 4);
    e->padded_size = cc_le64(h + 8);
    e->stored_size = cc_le32(h + 16);
    e->version_minor = cc_le16(h + 24);
    e->version_major = cc_le16(h + 26);
    e->arch = cc_le32(h + 28);
    e->flags = cc_le64(h + 40);
    e->uncompressed_size = cc_le64(h + 56);
    e->compression = compression_of(e->flags);
    if (e->header_size < CC_FATBIN_ENTRY_MIN_SIZE || e->header_size > avail) {
        snprintf(err, errlen, "bad entry header size %u", e->header_size);
        return -1;
    }
    if (e->padded_size > avail - e->header_size) {
        snprintf(err, errlen, "entry payload (%llu bytes) runs past its container",
                 (unsigned long long)e->padded_size);
        return -1;
    }
    if (e->compression == CC_COMPRESS_NONE) {
        /* Uncompressed entries leave the two size fields zero. */
        e->stored_size = e->padded_size;
        e->uncompressed_size = e->padded_size;
    } else if (e->stored_size > e->padded_size) {
        snprintf(err, errlen, "compressed size %llu larger than the payload (%llu)",
                 (unsigned long long)e->stored_size, (unsigned long long)e->padded_size);
        return -1;
    }
    e->arch_suffix = (e->flags & CC_FATBIN_FLAG_ARCH_SPECIFIC) ? 'a'
                     : (e->flags & CC_FATBIN_FLAG_FAMILY)      ? 'f'
                                                               : 0;
    e->payload = h + e->header_size;
    e->obj_name = header_string(h, e->header_size, cc_le32(h + 32), cc_le32(h + 36),
                                &e->obj_name_len);
    e->options = NULL;
    e->options_len = 0;
    uint32_t opt = cc_le32(h + 20); /* offset of an (offset, length) pair inside the header */
    if (e->kind == CC_FATBIN_KIND_PTX && opt && opt <= e->header_size - 8) {
        e->options = header_string(h, e->header_size, cc_le32(h + opt), cc_le32(h + opt + 4),
                                   &e->options_len);
        while (e->options && e->options_len && *e->options == ' ') {
            e->options++;
            e->options_len--;
        }
        if (e->options_len == 0)
            e->options = NULL;
    }
    return 0;
}

int cc_fatbin_iter(const void *data, size_t size, cc_fatbin_cb cb, void *user, char *err,
                   size_t errlen)
{
    const unsigned char *p = data;
    uint64_t off = 0;
    int containers = 0;
    while (off < size) {
        /* Containers are 8-byte aligned; zero bytes pad between them. */
        if (p[off] == 0) {
            off++;
            continue;
        }
        if (size - off < CC_FATBIN_HEADER_SIZE || cc_le32(p + off) != CC_FATBIN_MAGIC) {
            snprintf(err, errlen, "offset %llu: no fatbin header (magic 0x%08x expected)",
                     (unsigned long long)off, CC_FATBIN_MAGIC);
            return -1;
        }
        uint16_t hsize = cc_le16(p + off + 6);
        uint64_t fat_size = cc_le64(p + off + 8);
        if (hsize < CC_FATBIN_HEADER_SIZE || hsize > size - off ||
            fat_size > size - off - hsize) {
            snprintf(err, errlen, "offset %llu: fatbin container (header %u, size %llu) runs past "
                     "the end (%zu bytes)", (unsigned long long)off, hsize,
                     (unsigned long long)fat_size, size);
            return -1;
        }
        uint64_t e_off = off + hsize, end = off + hsize + fat_size;
        while (e_off < end) {
            cc_fatbin_entry e;
            memset(&e, 0, sizeof e);
            e.container = (uint32_t)containers;
            e.offset = e_off;
            char sub[160];
            if (decode_entry(p + e_off, end - e_off, &e, sub, sizeof sub) != 0) {
                snprintf(err, errlen, "offset %llu: %s", (unsigned long long)e_off, sub);
                return -1;
            }
            if (cb && cb(&e, user))
                return containers + 1;
            e_off += e.header_size + e.padded_size;
        }
        containers++;
        off = end;
    }
    return containers;
}

int cc_fatbin_payload(const cc_fatbin_entry *e, unsigned char **out, size_t *outlen, char *err,
                      size_t errlen)
{
    *out = NULL;
    *outlen = 0;
    uint64_t n = e->compression == CC_COMPRESS_NONE ? e->stored_size : e->uncompressed_size;
    /* Compressed: first whether the stored bytes can expand that far at all, then the limit. */
    if (e->compression != CC_COMPRESS_NONE && n <= SIZE_MAX &&
        cc_decompress_check(e->compression, e->payload, (size_t)e->stored_size, (size_t)n, err,
                            errlen) != 0)
        return -1;
    if (n > CC_FATBIN_MAX_ENTRY_BYTES) {
        snprintf(err, errlen, "entry would be %llu bytes uncompressed, more than the %llu MiB "
                 "cucheck reads of one entry", (unsigned long long)n,
                 (unsigned long long)(CC_FATBIN_MAX_ENTRY_BYTES >> 20));
        return -1;
    }
    unsigned char *buf = malloc((size_t)n + 1);
    if (!buf) {
        snprintf(err, errlen, "out of memory (%llu bytes)", (unsigned long long)n);
        return -1;
    }
    if (e->compression == CC_COMPRESS_NONE) {
        memcpy(buf, e->payload, (size_t)n);
    } else if (cc_decompress(e->compression, e->payload, (size_t)e->stored_size, buf, (size_t)n,
                             err, errlen) != 0) {
        free(buf);
        return -1;
    }
    buf[n] = 0;
    *out = buf;
    *outlen = (size_t)n;
    return 0;
}
