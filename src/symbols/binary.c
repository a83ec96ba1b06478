/* cc_binary_scan: file-kind detection and the walk from a file to its device code images
 * (host ELF sections, ar members, fatbin entries, raw cubin/PTX). */
#include "symbols/binary.h"
#include "symbols/cubin.h"
#include "symbols/elf.h"
#include "symbols/ptx.h"
#include "core/input_file.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AR_MAGIC "!<arch>\n"
#define AR_HDR 60u

const char *cc_file_kind_name(cc_file_kind k)
{
    switch (k) {
    case CC_FILE_HOST_ELF: return "elf";
    case CC_FILE_ARCHIVE: return "archive";
    case CC_FILE_CUBIN: return "cubin";
    case CC_FILE_FATBIN: return "fatbin";
    case CC_FILE_PTX: return "ptx";
    default: return "unknown";
    }
}

cc_file_kind cc_file_kind_of(const void *data, size_t size)
{
    if (cc_cubin_is_cubin(data, size))
        return CC_FILE_CUBIN;
    if (cc_elf_is_elf(data, size))
        return CC_FILE_HOST_ELF;
    if (size >= 8 && memcmp(data, AR_MAGIC, 8) == 0)
        return CC_FILE_ARCHIVE;
    if (cc_fatbin_is_fatbin(data, size))
        return CC_FILE_FATBIN;
    if (cc_ptx_is_ptx(data, size))
        return CC_FILE_PTX;
    return CC_FILE_UNKNOWN;
}

typedef struct scan {
    const char *path;
    const char *member;
    const char *section;
    cc_image_cb cb;
    void *user;
    cc_scan_stats *stats;
    int stop;
} scan;

static void deliver(scan *s, cc_code_image *img)
{
    img->path = s->path;
    img->member = s->member;
    img->section = s->section;
    s->stats->images++;
    if (s->cb && s->cb(img, s->user))
        s->stop = 1;
}

static int on_entry(const cc_fatbin_entry *e, void *user)
{
    scan *s = user;
    cc_code_image img;
    char err[160];
    unsigned char *buf = NULL;
    size_t n = 0;
    memset(&img, 0, sizeof img);
    img.in_fatbin = 1;
    img.entry = *e;
    img.kind = e->kind;
    if (cc_fatbin_payload(e, &buf, &n, err, sizeof err) == 0) {
        img.data = buf;
        img.size = n;
    } else {
        img.error = err;
    }
    deliver(s, &img);
    free(buf);
    return s->stop;
}

static int scan_fatbin(scan *s, const unsigned char *p, size_t n, char *err, size_t errlen)
{
    int c = cc_fatbin_iter(p, n, on_entry, s, err, errlen);
    if (c < 0)
        return -1;
    s->stats->fatbins += (uint32_t)c;
    return 0;
}

static int scan_host_elf(scan *s, const unsigned char *p, size_t n, char *err, size_t errlen)
{
    cc_elf elf;
    if (cc_elf_open(&elf, p, n, err, errlen) != 0)
        return -1;
    for (uint32_t i = 1; i < elf.shnum && !s->stop; i++) {
        cc_elf_section sec;
        if (cc_elf_get_section(&elf, i, &sec) != 0) {
            snprintf(err, errlen, "section %u lies outside the file", i);
            return -1;
        }
        if (strcmp(sec.name, ".nv_fatbin") != 0 && strcmp(sec.name, "__nv_relfatbin") != 0)
            continue;
        if (!sec.data)
            continue;
        s->section = sec.name;
        char sub[200];
        if (scan_fatbin(s, sec.data, (size_t)sec.size, sub, sizeof sub) != 0) {
            snprintf(err, errlen, "%s: %s", sec.name, sub);
            return -1;
        }
        s->section = NULL;
    }
    return 0;
}

static int scan_any(scan *s, const unsigned char *p, size_t n, cc_file_kind k, char *err,
                    size_t errlen);

/* Member name from a header (GNU "name/", "/123" long names, BSD "#1/len"). */
static void member_name(const unsigned char *h, const char *longnames, size_t longlen,
                        const unsigned char *body, size_t bodylen, char *out, size_t outlen,
                        size_t *skip)
{
    char raw[17];
    memcpy(raw, h, 16);
    raw[16] = 0;
    *skip = 0;
    if (raw[0] == '/' && raw[1] >= '0' && raw[1] <= '9' && longnames) {
        size_t off = (size_t)strtoul(raw + 1, NULL, 10), end = off;
        while (end < longlen && longnames[end] != '\n' && longnames[end] != '/')
            end++;
        if (off < longlen) {
            snprintf(out, outlen, "%.*s", (int)(end - off), longnames + off);
            return;
        }
    } else if (memcmp(raw, "#1/", 3) == 0) {
        size_t l = (size_t)strtoul(raw + 3, NULL, 10);
        if (l <= bodylen) {
            snprintf(out, outlen, "%.*s", (int)strnlen((const char *)body, l), (const char *)body);
            *skip = l;
            return;
        }
    }
    size_t l = 16;
    while (l > 0 && (raw[l - 1] == ' ' || raw[l - 1] == '/'))
        l--;
    snprintf(out, outlen, "%.*s", (int)l, raw);
}

static int scan_archive(scan *s, const unsigned char *p, size_t n, char *err, size_t errlen)
{
    size_t off = 8;
    const char *longnames = NULL;
    size_t longlen = 0;
    while (off < n && !s->stop) {
        if (n - off < AR_HDR) {
            snprintf(err, errlen, "archive offset %zu: truncated member header", off);
            return -1;
        }
        const unsigned char *h = p + off;
        if (h[58] != '`' || h[59] != '\n') {
            snprintf(err, errlen, "archive offset %zu: bad member header", off);
            return -1;
        }
        char sz[11];
        memcpy(sz, h + 48, 10);
        sz[10] = 0;
        char *endp;
        unsigned long long msize = strtoull(sz, &endp, 10);
        if (endp == sz || msize > n - off - AR_HDR) {
            snprintf(err, errlen, "archive offset %zu: member size '%.10s' runs past the end",
                     off, sz);
            return -1;
        }
        const unsigned char *body = h + AR_HDR;
        if (memcmp(h, "//              ", 16) == 0) {
            longnames = (const char *)body;
            longlen = (size_t)msize;
        } else if (h[0] == '/' && (h[1] == ' ' || memcmp(h, "/SYM64/", 7) == 0)) {
            /* symbol index */
        } else {
            char name[256];
            size_t skip;
            member_name(h, longnames, longlen, body, (size_t)msize, name, sizeof name, &skip);
            s->stats->members++;
            cc_file_kind k = cc_file_kind_of(body + skip, (size_t)msize - skip);
            if (k != CC_FILE_UNKNOWN && k != CC_FILE_ARCHIVE) {
                s->member = name;
                char sub[200];
                if (scan_any(s, body + skip, (size_t)msize - skip, k, sub, sizeof sub) != 0) {
                    snprintf(err, errlen, "member %s: %s", name, sub);
                    s->member = NULL;
                    return -1;
                }
                s->member = NULL;
            }
        }
        off += AR_HDR + (size_t)msize;
        off += off & 1; /* members are 2-byte aligned */
    }
    return 0;
}

static int scan_any(scan *s, const unsigned char *p, size_t n, cc_file_kind k, char *err,
                    size_t errlen)
{
    cc_code_image img;
    memset(&img, 0, sizeof img);
    switch (k) {
    case CC_FILE_HOST_ELF: return scan_host_elf(s, p, n, err, errlen);
    case CC_FILE_ARCHIVE: return scan_archive(s, p, n, err, errlen);
    case CC_FILE_FATBIN: return scan_fatbin(s, p, n, err, errlen);
    case CC_FILE_CUBIN:
        img.kind = CC_FATBIN_KIND_ELF;
        img.data = p;
        img.size = n;
        deliver(s, &img);
        return 0;
    case CC_FILE_PTX:
        img.kind = CC_FATBIN_KIND_PTX;
        img.data = p;
        img.size = n;
        deliver(s, &img);
        return 0;
    default: return 0;
    }
}

int cc_binary_scan_mem(const void *data, size_t size, const char *name, cc_image_cb cb,
                       void *user, cc_scan_stats *stats, char *err, size_t errlen)
{
    cc_scan_stats local;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    scan s = {name, NULL, NULL, cb, user, stats, 0};
    stats->kind = cc_file_kind_of(data, size);
    return scan_any(&s, data, size, stats->kind, err, errlen);
}

int cc_binary_scan(const char *path, cc_image_cb cb, void *user, cc_scan_stats *stats, char *err,
                   size_t errlen)
{
    cc_scan_stats local;
    if (!stats)
        stats = &local;
    memset(stats, 0, sizeof *stats);
    cc_input_map m; /* a regular file only: a FIFO or a device is refused, never read */
    if (cc_input_map_open(path, &m, err, errlen) != 0)
        return -1;
    int rc = m.size ? cc_binary_scan_mem(m.data, m.size, path, cb, user, stats, err, errlen)
                    : 0; /* empty: no device code */
    cc_input_map_close(&m);
    return rc;
}
