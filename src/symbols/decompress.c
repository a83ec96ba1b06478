/* Decompression of fatbin entry payloads: LZ4 raw blocks and zstd frames, through liblz4 and
 * libzstd when the build found them (CUCHECK_HAVE_LZ4 / CUCHECK_HAVE_ZSTD); otherwise a clear
 * "built without ..." error. Every decompression is bounded before its buffer is allocated: by
 * the most the input can expand to under its format, and by CC_FATBIN_MAX_ENTRY_BYTES. */
#include "symbols/fatbin.h"

#include <stdio.h>

#ifdef CUCHECK_HAVE_LZ4
#include <lz4.h>
#endif
#ifdef CUCHECK_HAVE_ZSTD
#include <zstd.h>
#endif

int cc_compression_supported(cc_compression c)
{
    switch (c) {
    case CC_COMPRESS_NONE: return 1;
#ifdef CUCHECK_HAVE_LZ4
    case CC_COMPRESS_LZ4: return 1;
#endif
#ifdef CUCHECK_HAVE_ZSTD
    case CC_COMPRESS_ZSTD: return 1;
#endif
    default: return 0;
    }
}

/* The most one input byte can become, by the formats themselves: an LZ4 sequence's length bytes
 * add at most 255 each; a zstd RLE block of 4 bytes (3 of header, 1 repeated) holds at most
 * 128 KiB, and no block expands more. A payload that claims more is corrupt or hostile, and is
 * refused before anything is allocated. */
#define LZ4_MAX_RATIO 255u
#define ZSTD_MAX_RATIO 32768u
#define RATIO_SLACK 64u /* frame and block headers of a tiny input */

static int exceeds_ratio(size_t inlen, size_t expected, unsigned ratio)
{
    return expected / ratio > inlen + RATIO_SLACK;
}

int cc_decompress_check(cc_compression c, const unsigned char *in, size_t inlen, size_t expected,
                        char *err, size_t errlen)
{
    if (!cc_compression_supported(c)) {
        /* Let cc_decompress say which library is missing. */
        return cc_decompress(c, in, inlen, NULL, 0, err, errlen);
    }
    if (c == CC_COMPRESS_NONE)
        return 0;
    unsigned ratio = c == CC_COMPRESS_LZ4 ? LZ4_MAX_RATIO : ZSTD_MAX_RATIO;
    if (exceeds_ratio(inlen, expected, ratio)) {
        snprintf(err, errlen, "%s: %zu bytes cannot expand to %zu (at most %u times as many)",
                 cc_compression_name(c), inlen, expected, ratio);
        return -1;
    }
    if (expected > CC_FATBIN_MAX_ENTRY_BYTES) {
        snprintf(err, errlen, "%s: entry would be %zu bytes uncompressed, more than the %llu MiB "
                 "cucheck reads of one entry", cc_compression_name(c), expected,
                 (unsigned long long)(CC_FATBIN_MAX_ENTRY_BYTES >> 20));
        return -1;
    }
#ifdef CUCHECK_HAVE_ZSTD
    if (c == CC_COMPRESS_ZSTD) {
        unsigned long long fcs = ZSTD_getFrameContentSize(in, inlen);
        if (fcs == ZSTD_CONTENTSIZE_ERROR) {
            snprintf(err, errlen, "zstd: not a zstd frame");
            return -1;
        }
        if (fcs != ZSTD_CONTENTSIZE_UNKNOWN && fcs != expected) {
            snprintf(err, errlen, "zstd: frame holds %llu bytes, entry header says %zu", fcs,
                     expected);
            return -1;
        }
    }
#endif
    return 0;
}

int cc_decompress(cc_compression c, const unsigned char *in, size_t inlen, unsigned char *out,
                  size_t expected, char *err, size_t errlen)
{
    (void)in;
    (void)inlen;
    (void)out;
    (void)expected;
    switch (c) {
    case CC_COMPRESS_LZ4:
#ifdef CUCHECK_HAVE_LZ4
        if (inlen > (size_t)LZ4_MAX_INPUT_SIZE || expected > (size_t)LZ4_MAX_INPUT_SIZE) {
            snprintf(err, errlen, "lz4: sizes out of range");
            return -1;
        }
        {
            int got = LZ4_decompress_safe((const char *)in, (char *)out, (int)inlen, (int)expected);
            if (got < 0 || (size_t)got != expected) {
                snprintf(err, errlen, "lz4: corrupt data (got %d of %zu bytes)", got, expected);
                return -1;
            }
        }
        return 0;
#else
        snprintf(err, errlen, "lz4-compressed entry: cucheck was built without liblz4");
        return -1;
#endif
    case CC_COMPRESS_ZSTD:
#ifdef CUCHECK_HAVE_ZSTD
        {
            size_t got = ZSTD_decompress(out, expected, in, inlen);
            if (ZSTD_isError(got)) {
                snprintf(err, errlen, "zstd: %s", ZSTD_getErrorName(got));
                return -1;
            }
            if (got != expected) {
                snprintf(err, errlen, "zstd: got %zu of %zu bytes", got, expected);
                return -1;
            }
        }
        return 0;
#else
        snprintf(err, errlen, "zstd-compressed entry: cucheck was built without libzstd");
        return -1;
#endif
    case CC_COMPRESS_NONE:
        snprintf(err, errlen, "entry is not compressed");
        return -1;
    default:
        snprintf(err, errlen, "unknown compression (both LZ4 and zstd flag bits set)");
        return -1;
    }
}
