/* The hash functions of cucheck, header-only (the agent's files and the tools use them alike):
 * a 64-bit mix of one integer (every output bit depends on every input bit), a cheap key for a
 * pair of handles, a combiner for sequences of integers (stacks of return addresses),
 * and FNV-1a over bytes and strings, which can be continued over several fields. Every hash
 * table key derived from a string, a pair of handles or a record is made with these.
 * cc_hash_str values are part of reports (SARIF fingerprints, report_sarif.c): they must not
 * change. */
#ifndef CUCHECK_CORE_HASH_H
#define CUCHECK_CORE_HASH_H

#include <stddef.h>
#include <stdint.h>

/* The starting value of cucheck's FNV-1a hashes. It is not FNV's published offset basis
 * (14695981039346656037, one digit longer) but has been cucheck's from the start: SARIF
 * fingerprints carry hashes made from it, so it stays. */
#define CC_HASH_SEED 1469598103934665603ull

/* A 64-bit mix of x (the finalizer of SplitMix64): every output bit depends on every input bit;
 * a bijection, so distinct inputs stay distinct. */
static inline uint64_t cc_hash_u64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 27;
    x *= 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* Two handles (a function and a string, a context and a stream) as one key, in two multiplies:
 * for per-launch paths; the hash table mixes keys further itself. */
static inline uint64_t cc_hash_pair(uint64_t a, uint64_t b)
{
    return a * 0x9E3779B97F4A7C15ull ^ b * 0xC2B2AE3D27D4EB4Full;
}

/* h with v appended: for hashing a sequence of integers, starting from any seed. */
static inline uint64_t cc_hash_combine(uint64_t h, uint64_t v)
{
    h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}

/* FNV-1a of n bytes, continuing h (CC_HASH_SEED to start). */
static inline uint64_t cc_hash_more(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ull;
    }
    return h;
}

static inline uint64_t cc_hash_bytes(const void *data, size_t n)
{
    return cc_hash_more(CC_HASH_SEED, data, n);
}

/* FNV-1a of a NUL-terminated string (its bytes without the NUL). */
static inline uint64_t cc_hash_str(const char *s)
{
    uint64_t h = CC_HASH_SEED;
    for (; *s != '\0'; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

#endif
