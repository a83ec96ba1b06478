/* Parser for NVIDIA fatbin containers (the contents of a host ELF's .nv_fatbin section, of
 * __nv_relfatbin in -rdc objects, and of .fatbin files): one or more concatenated containers,
 * each a 16-byte header followed by entries (PTX text or a SASS cubin, possibly compressed).
 * The layout was established empirically with nvcc 13.0; docs/inspect.md lists every field. */
#ifndef CUCHECK_SYMBOLS_FATBIN_H
#define CUCHECK_SYMBOLS_FATBIN_H

#include <stddef.h>
#include <stdint.h>

#define CC_FATBIN_MAGIC 0xBA55ED50u
#define CC_FATBIN_HEADER_SIZE 16u
#define CC_FATBIN_ENTRY_MIN_SIZE 64u

#define CC_FATBIN_KIND_PTX 1u
#define CC_FATBIN_KIND_ELF 2u

/* Entry flag bits (u64 at entry offset 40). */
#define CC_FATBIN_FLAG_64BIT 0x1ull
#define CC_FATBIN_FLAG_DEBUG 0x2ull          /* -G */
#define CC_FATBIN_FLAG_LINUX 0x10ull
#define CC_FATBIN_FLAG_LZ4 0x2000ull         /* LZ4 block (--compress-mode=speed) */
#define CC_FATBIN_FLAG_ZSTD 0x8000ull        /* zstd frame (default, size, balance) */
#define CC_FATBIN_FLAG_ARCH_SPECIFIC 0x100000ull  /* sm_XXa / compute_XXa */
#define CC_FATBIN_FLAG_FAMILY 0x200000ull         /* sm_XXf / compute_XXf */
#define CC_FATBIN_FLAG_COMPAT_TABLE 0x1000000ull  /* sm_100+ SASS: header carries a compat table */

typedef enum cc_compression {
    CC_COMPRESS_NONE = 0,
    CC_COMPRESS_LZ4 = 1,
    CC_COMPRESS_ZSTD = 2,
    CC_COMPRESS_UNKNOWN = 3, /* both bits set */
} cc_compression;

typedef struct cc_fatbin_entry {
    uint32_t container;        /* 0-based index of the container the entry is in */
    uint64_t offset;           /* of the entry header from the start of the buffer */
    uint32_t kind;             /* CC_FATBIN_KIND_* (other values are reported, not decoded) */
    uint32_t header_size;
    uint64_t padded_size;      /* payload bytes reserved in the container */
    uint64_t stored_size;      /* payload bytes actually used (compressed size if compressed) */
    uint64_t uncompressed_size;
    uint16_t version_major, version_minor; /* PTX: the PTX ISA version; ELF: 1.8 with nvcc 13 */
    uint32_t arch;             /* 90 for sm_90 / compute_90 */
    char arch_suffix;          /* 'a', 'f' or 0 */
    uint64_t flags;
    cc_compression compression;
    const unsigned char *payload; /* stored_size bytes */
    const char *obj_name;      /* source/object name (-lineinfo/-G builds), may be NULL */
    size_t obj_name_len;
    const char *options;       /* PTX entries: ptxas options the entry asks for, may be NULL */
    size_t options_len;
} cc_fatbin_entry;

/* Called per entry; return non-zero to stop the walk. */
typedef int (*cc_fatbin_cb)(const cc_fatbin_entry *e, void *user);

/* 1 if data starts with a fatbin container header. */
int cc_fatbin_is_fatbin(const void *data, size_t size);
/* Walk every container and entry. Zero padding between containers is skipped. Returns the number
 * of containers, or -1 with a message in err (entries before the error were delivered). */
int cc_fatbin_iter(const void *data, size_t size, cc_fatbin_cb cb, void *user, char *err,
                   size_t errlen);
/* "sm_90a" / "compute_100f" into buf. */
void cc_fatbin_arch_name(const cc_fatbin_entry *e, char *buf, size_t len);
const char *cc_compression_name(cc_compression c); /* "none", "lz4", "zstd", "unknown" */

/* The most bytes an entry's payload may have once uncompressed: larger entries are refused
 * (a cubin is a few MiB; this bounds what a corrupt or hostile file makes cucheck allocate). */
#define CC_FATBIN_MAX_ENTRY_BYTES (1ull << 30)

/* 1 if this build can decompress c (CC_COMPRESS_NONE always). */
int cc_compression_supported(cc_compression c);
/* The entry's uncompressed payload in a malloc'd buffer (*out, *outlen), NUL-terminated one byte
 * past *outlen for convenience. 0 ok; -1 with err (unsupported codec, corrupt data, size
 * mismatch, larger than CC_FATBIN_MAX_ENTRY_BYTES or than its compressed size can hold). */
int cc_fatbin_payload(const cc_fatbin_entry *e, unsigned char **out, size_t *outlen, char *err,
                      size_t errlen);

/* Decompress helpers (decompress.c). expected: the exact output size. 0 ok, -1 with err. */
/* Before allocating: 0 if a payload of inlen bytes can expand to expected bytes: at most
 * CC_FATBIN_MAX_ENTRY_BYTES, at most 255 times inlen for LZ4 and 32768 times for zstd (the
 * formats' own limits), and for zstd the size its frame header declares. -1 with err otherwise. */
int cc_decompress_check(cc_compression c, const unsigned char *in, size_t inlen, size_t expected,
                        char *err, size_t errlen);
int cc_decompress(cc_compression c, const unsigned char *in, size_t inlen, unsigned char *out,
                  size_t expected, char *err, size_t errlen);

#endif
