/* Decompression bounds of fatbin entries: a compressed payload that claims more than its format
 * can expand it to (the 96-byte fatbin whose zstd frame declares 4 GiB, an LZ4 entry claiming
 * 64 MiB from 16 bytes) is refused with a message before anything is allocated, so is one over
 * CC_FATBIN_MAX_ENTRY_BYTES; a real zstd frame close to the format's own ratio (RLE blocks, the
 * way nvcc compresses a mostly-zero __device__ array) still decompresses. No toolkit needed. */
#include "check.h"
#include "symbols/fatbin.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void put16(unsigned char *p, uint16_t v) { p[0] = (unsigned char)v; p[1] = (unsigned char)(v >> 8); }
static void put32(unsigned char *p, uint32_t v) { put16(p, (uint16_t)v); put16(p + 2, (uint16_t)(v >> 16)); }
static void put64(unsigned char *p, uint64_t v) { put32(p, (uint32_t)v); put32(p + 4, (uint32_t)(v >> 32)); }

/* One container holding one sm_90 SASS entry whose payload is the given compressed bytes. */
static size_t build_entry(unsigned char *b, uint64_t flags, const unsigned char *payload,
                          size_t plen, uint64_t uncompressed)
{
    memset(b, 0, 16 + 64 + plen);
    put32(b, CC_FATBIN_MAGIC);
    put16(b + 4, 1);
    put16(b + 6, 16);
    put64(b + 8, 64 + plen);
    unsigned char *h = b + 16;
    put16(h, CC_FATBIN_KIND_ELF);
    put32(h + 4, 64);
    put64(h + 8, plen);
    put32(h + 16, (uint32_t)plen);
    put16(h + 24, 8);
    put16(h + 26, 1);
    put32(h + 28, 90);
    put64(h + 40, 0x11 | flags);
    put64(h + 56, uncompressed);
    memcpy(h + 64, payload, plen);
    return 16 + 64 + plen;
}

static int first_entry(const cc_fatbin_entry *e, void *user)
{
    *(cc_fatbin_entry *)user = *e;
    return 1;
}

/* Extracts the only entry of the fatbin in b; returns cc_fatbin_payload's result. */
static int payload_of(const unsigned char *b, size_t n, unsigned char **out, size_t *outlen,
                      char *err, size_t errlen)
{
    cc_fatbin_entry e;
    memset(&e, 0, sizeof e);
    CHECK(cc_fatbin_iter(b, n, first_entry, &e, err, errlen) == 1);
    return cc_fatbin_payload(&e, out, outlen, err, errlen);
}

/* A zstd frame header with a 4-byte (fcs4) or 8-byte content size, single segment. */
static size_t zstd_header(unsigned char *p, uint64_t content, int fcs8)
{
    p[0] = 0x28; p[1] = 0xb5; p[2] = 0x2f; p[3] = 0xfd;
    p[4] = fcs8 ? 0xe0 : 0xa0; /* FCS field 8 or 4 bytes, single segment */
    if (fcs8) {
        put64(p + 5, content);
        return 13;
    }
    put32(p + 5, (uint32_t)content);
    return 9;
}

/* A zstd block header: last flag, type (0 raw, 1 RLE), size. */
static void zstd_block(unsigned char *p, int last, int type, uint32_t size)
{
    uint32_t h = (uint32_t)last | ((uint32_t)type << 1) | (size << 3);
    p[0] = (unsigned char)h;
    p[1] = (unsigned char)(h >> 8);
    p[2] = (unsigned char)(h >> 16);
}

static void test_zstd_bomb_4g(void)
{
    /* The 96-byte fatbin: 16 + 64 header bytes and a 16-byte zstd frame declaring 4 GiB. */
    unsigned char frame[16], b[128];
    size_t k = zstd_header(frame, 1ull << 32, 1);
    zstd_block(frame + k, 1, 0, 0);
    CHECK_EQ_U64(k + 3, 16);
    size_t n = build_entry(b, CC_FATBIN_FLAG_ZSTD, frame, 16, 1ull << 32);
    CHECK_EQ_U64(n, 96);
    unsigned char *out = (unsigned char *)"unset";
    size_t outlen = 1;
    char err[256] = "";
    CHECK(payload_of(b, n, &out, &outlen, err, sizeof err) == -1);
    CHECK(out == NULL && outlen == 0);
    if (cc_compression_supported(CC_COMPRESS_ZSTD))
        CHECK(strstr(err, "zstd: 16 bytes cannot expand to 4294967296") != NULL);
    else
        CHECK(strstr(err, "built without libzstd") != NULL);
}

static void test_ratio_under_limit(void)
{
    /* 64 MiB claimed from 16 bytes: under the entry limit, far over what 16 bytes can hold. */
    unsigned char frame[16], b[128];
    size_t k = zstd_header(frame, 64u << 20, 0);
    zstd_block(frame + k, 1, 1, 1u << 17);
    frame[k + 3] = 'A';
    memset(frame + k + 4, 0, sizeof frame - k - 4);
    size_t n = build_entry(b, CC_FATBIN_FLAG_ZSTD, frame, 16, 64u << 20);
    unsigned char *out = NULL;
    size_t outlen = 0;
    char err[256] = "";
    CHECK(payload_of(b, n, &out, &outlen, err, sizeof err) == -1);
    if (cc_compression_supported(CC_COMPRESS_ZSTD))
        CHECK(strstr(err, "cannot expand to 67108864 (at most 32768 times as many)") != NULL);

    /* LZ4 keeps its own bound: 255 times the stored bytes. */
    unsigned char lz[16];
    memset(lz, 0xff, sizeof lz);
    n = build_entry(b, CC_FATBIN_FLAG_LZ4, lz, sizeof lz, 64u << 20);
    err[0] = '\0';
    CHECK(payload_of(b, n, &out, &outlen, err, sizeof err) == -1);
    if (cc_compression_supported(CC_COMPRESS_LZ4))
        CHECK(strstr(err, "lz4: 16 bytes cannot expand to 67108864 (at most 255 times") != NULL);
    else
        CHECK(strstr(err, "built without liblz4") != NULL);
}

/* A valid frame of RLE blocks: nblocks * 128 KiB of 'Z' from 4 bytes per block. */
static unsigned char *rle_frame(uint32_t nblocks, size_t *len)
{
    uint64_t content = (uint64_t)nblocks << 17;
    unsigned char *p = malloc(13 + 4 * (size_t)nblocks);
    if (!p) return NULL;
    size_t k = zstd_header(p, content, 1);
    for (uint32_t i = 0; i < nblocks; i++, k += 4) {
        zstd_block(p + k, i + 1 == nblocks, 1, 1u << 17);
        p[k + 3] = 'Z';
    }
    *len = k;
    return p;
}

static void test_real_high_ratio(void)
{
    if (!cc_compression_supported(CC_COMPRESS_ZSTD))
        return;
    /* 8 MiB from 269 bytes (31,000 : 1) is a valid frame: it must still be read. */
    size_t flen = 0;
    unsigned char *frame = rle_frame(64, &flen);
    CHECK(frame != NULL);
    if (!frame) return;
    unsigned char *b = malloc(16 + 64 + flen);
    size_t n = build_entry(b, CC_FATBIN_FLAG_ZSTD, frame, flen, 64u << 17);
    unsigned char *out = NULL;
    size_t outlen = 0;
    char err[256] = "";
    CHECK(payload_of(b, n, &out, &outlen, err, sizeof err) == 0);
    CHECK_EQ_U64(outlen, 64u << 17);
    int all_z = out != NULL;
    for (size_t i = 0; out && i < outlen; i++)
        all_z &= out[i] == 'Z';
    CHECK(all_z);
    free(out);
    free(b);
    free(frame);

    /* Over the entry limit even though the frame is valid: refused before allocating. */
    uint32_t nblocks = (uint32_t)(CC_FATBIN_MAX_ENTRY_BYTES >> 17) + 1;
    frame = rle_frame(nblocks, &flen);
    CHECK(frame != NULL);
    if (!frame) return;
    b = malloc(16 + 64 + flen);
    n = build_entry(b, CC_FATBIN_FLAG_ZSTD, frame, flen, (uint64_t)nblocks << 17);
    out = NULL;
    err[0] = '\0';
    CHECK(payload_of(b, n, &out, &outlen, err, sizeof err) == -1);
    CHECK(out == NULL);
    CHECK(strstr(err, "more than the 1024 MiB cucheck reads of one entry") != NULL);
    free(b);
    free(frame);
}

int main(void)
{
    test_zstd_bomb_4g();
    test_ratio_under_limit();
    test_real_high_ratio();
    TEST_MAIN_END();
}
