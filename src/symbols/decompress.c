/* Decompression of fatbin entry payloads: LZ4 raw blocks and zstd frames, through liblz4 and
 * libzstd when the build found them (CUCHECK_HAVE_LZ4 / CUCHECK_HAVE_ZSTD); otherwise a clear
 * "built without ..." error. */
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

/* LZ4's best case is one 255-length run per output byte of token: about 255:1. */
#define LZ4_MAX_RATIO 255u

int cc_decompress_check(cc_compression c, const unsigned char *in, size_t inlen, size_t expected,
                        char *err, size_t errlen)
{
    if (!cc_compression_supported(c)) {
        /* Let cc_decompress say which library is missing. */
        return cc_decompress(c, in, inlen, NULL, 0, err, errlen);
    }
    if (c == CC_COMPRESS_LZ4 && expected / LZ4_MAX_RATIO > inlen + 16) {
        snprintf(err, errlen, "lz4: %zu bytes cannot expand to %zu", inlen, expected);
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
        if (fcs == ZSTD_CONTENTSIZE_UNKNOWN && expected / 1024u > inlen + 64) {
            snprintf(err, errlen, "zstd: %zu bytes cannot plausibly expand to %zu", inlen,
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
