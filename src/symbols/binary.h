/* Finding device code in any file a user may point cucheck at: host executables, shared
 * libraries and objects (.nv_fatbin / __nv_relfatbin sections), static archives (member by
 * member), raw cubins, raw fatbins and PTX text. Each piece of device code found is handed to a
 * callback as a cc_code_image, already decompressed when the build has the codec. */
#ifndef CUCHECK_SYMBOLS_BINARY_H
#define CUCHECK_SYMBOLS_BINARY_H

#include <stddef.h>
#include <stdint.h>
#include "symbols/fatbin.h"

typedef enum cc_file_kind {
    CC_FILE_UNKNOWN = 0, /* not a format cucheck reads */
    CC_FILE_HOST_ELF,    /* executable, shared library or object */
    CC_FILE_ARCHIVE,     /* ar archive (.a) */
    CC_FILE_CUBIN,
    CC_FILE_FATBIN,
    CC_FILE_PTX,
} cc_file_kind;

typedef struct cc_code_image {
    const char *path;           /* the file scanned */
    const char *member;         /* archive member name, or NULL */
    const char *section;        /* ".nv_fatbin" / "__nv_relfatbin", or NULL */
    int in_fatbin;              /* entry below is valid */
    cc_fatbin_entry entry;
    uint32_t kind;              /* CC_FATBIN_KIND_ELF (SASS cubin) or CC_FATBIN_KIND_PTX */
    const unsigned char *data;  /* the image, uncompressed; NULL if it could not be read */
    size_t size;
    const char *error;          /* why data is NULL (unsupported codec, corrupt payload) */
} cc_code_image;

/* Return non-zero to stop the scan. */
typedef int (*cc_image_cb)(const cc_code_image *img, void *user);

typedef struct cc_scan_stats {
    cc_file_kind kind;
    uint32_t images;   /* images delivered */
    uint32_t fatbins;  /* fatbin containers seen */
    uint32_t members;  /* archive members scanned */
} cc_scan_stats;

const char *cc_file_kind_name(cc_file_kind k); /* "executable/library/object", "archive", ... */
/* Guess the kind from the first bytes. */
cc_file_kind cc_file_kind_of(const void *data, size_t size);

/* Scan a buffer (name is used for messages and cc_code_image.path). 0 ok (possibly with no
 * device code: stats->images == 0), -1 with err on a corrupt or unreadable file (images found
 * before the problem were delivered). */
int cc_binary_scan_mem(const void *data, size_t size, const char *name, cc_image_cb cb,
                       void *user, cc_scan_stats *stats, char *err, size_t errlen);
/* Same for a file on disk (mapped read-only; a regular file only, a FIFO or device is refused). */
int cc_binary_scan(const char *path, cc_image_cb cb, void *user, cc_scan_stats *stats, char *err,
                   size_t errlen);

#endif
