/* site_cache_test: the agent's per-thread call-site cache (src/agent/host/host_site_cache.c) must give,
 * on every hit, exactly the stack a full unwind gives at that moment. Each capture below does both
 * (the lookup first, as the agent does, then the unwind it would have saved) and compares them.
 * Cases: one call site in a loop; two sites reached at the same stack depth (same `here`), in
 * alternation; one launcher reached through two different callers of equal frame size through a
 * function pointer (only a return address tells them apart); recursion at many depths; more sites
 * at one depth than a set holds; a second thread; a new generation (fork). Exit 0 = pass. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "agent/host/host_site_cache.h"
#include "agent/host/host_unwind.h"

#define MAX_PCS 48

static _Thread_local uint64_t next_id = 1;
static _Thread_local int captures, hits, wrong;
static unsigned generation = 1;
static volatile int repeat = 3;

static uint64_t hash_pcs(const uint64_t *pcs, int n)
{
    uint64_t h = 0x5EED;
    for (int i = 0; i < n; i++) {
        h = (h ^ pcs[i]) * 0x100000001B3ull;
    }
    return h ? h : 1;
}

/* The agent's pattern: lookup by the address of a local, else unwind and fill. Here the unwind
 * always runs, to check a hit against it. */
__attribute__((noinline)) static void capture(void)
{
    volatile char marker = 0;
    uintptr_t here = (uintptr_t)&marker;
    uint64_t cached_hash = 0, cached_id = 0;
    int hit = cc_site_cache_lookup(here, generation, &cached_hash, &cached_id);
    uint64_t pcs[MAX_PCS];
    int n = cc_host_unwind(pcs, MAX_PCS);
    uint64_t h = hash_pcs(pcs, n);
    captures++;
    if (hit) {
        hits++;
        if (cached_hash != h) {
            wrong++;
        }
    } else {
        cc_site_cache_fill(here, generation, pcs, n, h, next_id++);
    }
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) static void site_a(void) { capture(); __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) static void site_b(void) { capture(); __asm__ volatile("" ::: "memory"); }

/* Two callers with the same frame, reached through a pointer from one call instruction. */
__attribute__((noinline)) static void via_one(void) { site_a(); __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) static void via_two(void) { site_a(); __asm__ volatile("" ::: "memory"); }
static void (*volatile via)(void);
__attribute__((noinline)) static void call_via(void) { via(); __asm__ volatile("" ::: "memory"); }

__attribute__((noinline)) static void recurse(int depth)
{
    if (depth == 0) {
        capture();
    } else {
        recurse(depth - 1);
    }
    __asm__ volatile("" ::: "memory");
}

/* 40 distinct call sites at one depth: more than a set's ways. */
#define SITE(n) __attribute__((noinline)) static void many_##n(void) { capture(); \
    __asm__ volatile("" ::: "memory"); }
#define SITES8(p) SITE(p##0) SITE(p##1) SITE(p##2) SITE(p##3) SITE(p##4) SITE(p##5) SITE(p##6) \
    SITE(p##7)
SITES8(1) SITES8(2) SITES8(3) SITES8(4) SITES8(5)
#define REF8(p) many_##p##0, many_##p##1, many_##p##2, many_##p##3, many_##p##4, many_##p##5, \
    many_##p##6, many_##p##7
static void (*const many[])(void) = {REF8(1), REF8(2), REF8(3), REF8(4), REF8(5)};

static int check(const char *what, int min_hits)
{
    int ok = wrong == 0 && hits >= min_hits;
    printf("site_cache: %-40s captures %4d hits %4d wrong %d  %s\n", what, captures, hits, wrong,
           ok ? "ok" : "FAIL");
    captures = hits = wrong = 0;
    return ok ? 0 : 1;
}

static int run_cases(const char *prefix)
{
    char name[80];
    int failed = 0;
    for (int i = 0; i < 100; i++) {
        site_a();
    }
    snprintf(name, sizeof name, "%sone site, 100 times", prefix);
    failed |= check(name, 95); /* the first captures may miss twice (lazy set-up) */
    for (int i = 0; i < 100; i++) {
        if (i % 2) {
            site_a();
        } else {
            site_b();
        }
    }
    snprintf(name, sizeof name, "%stwo sites alternating", prefix);
    failed |= check(name, 97);
    for (int i = 0; i < 100; i++) {
        via = i % 3 ? via_one : via_two;
        call_via();
    }
    snprintf(name, sizeof name, "%stwo callers via one pointer", prefix);
    failed |= check(name, 96);
    for (int i = 0; i < 200; i++) {
        recurse(i % 20);
    }
    snprintf(name, sizeof name, "%srecursion, 20 depths", prefix);
    failed |= check(name, 150);
    for (int i = 0; i < 400; i++) {
        many[i % 40]();
    }
    /* No hit is required when 40 sites share a set of 16 ways in rotation: only exactness. */
    snprintf(name, sizeof name, "%s40 sites at one depth", prefix);
    failed |= check(name, 0);
    return failed;
}

static void *thread_main(void *arg)
{
    (void)arg;
    static int failed;
    failed = run_cases("thread: ");
    return &failed;
}

int main(void)
{
    if (!cc_site_cache_enabled()) {
        printf("site_cache: skip: the cache is off on this platform or by CUCHECK_SITE_CACHE=0\n");
        return 77;
    }
    int failed = run_cases("");
    pthread_t t;
    void *ret = NULL;
    if (pthread_create(&t, NULL, thread_main, NULL) != 0 || pthread_join(t, &ret) != 0) {
        printf("site_cache: thread failed to run\n");
        return 1;
    }
    failed |= *(int *)ret;
    /* A new generation (what a fork child gets) must not hit the old entries, then refill. */
    for (int round = 0; round < 2; round++) {
        if (round == 1) {
            generation++;
            captures = hits = wrong = 0;
        }
        for (int i = 0; i < repeat; i++) { /* not unrolled: one call instruction */
            site_a();
        }
    }
    failed |= check("new generation: one miss, then hits", 2);
    uint64_t h, f;
    cc_site_cache_counts(&h, &f);
    printf("site_cache: main thread totals: hits %llu, fills %llu\n", (unsigned long long)h,
           (unsigned long long)f);
    printf("site_cache: %s\n", failed ? "FAILED" : "all ok");
    return failed;
}
