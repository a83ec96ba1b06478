/* Minimal assertion helpers for cucheck's CPU unit tests: each test file is one executable that
 * returns non-zero if any CHECK failed. */
#ifndef CUCHECK_TEST_CHECK_H
#define CUCHECK_TEST_CHECK_H

#include <stdio.h>
#include <string.h>

static int cc_test_failures;

#define CHECK(cond)                                                                    \
    do {                                                                               \
        if (!(cond)) {                                                                 \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond);  \
            cc_test_failures++;                                                        \
        }                                                                              \
    } while (0)

#define CHECK_EQ_U64(a, b)                                                             \
    do {                                                                               \
        unsigned long long cc_a_ = (unsigned long long)(a), cc_b_ = (unsigned long long)(b); \
        if (cc_a_ != cc_b_) {                                                          \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (%llu != %llu)\n", __FILE__, \
                    __LINE__, #a, #b, cc_a_, cc_b_);                                   \
            cc_test_failures++;                                                        \
        }                                                                              \
    } while (0)

#define CHECK_STR(a, b)                                                                \
    do {                                                                               \
        const char *cc_a_ = (a), *cc_b_ = (b);                                         \
        if (!cc_a_ || !cc_b_ || strcmp(cc_a_, cc_b_) != 0) {                           \
            fprintf(stderr, "%s:%d: CHECK failed: %s == %s (\"%s\" != \"%s\")\n",     \
                    __FILE__, __LINE__, #a, #b, cc_a_ ? cc_a_ : "(null)",              \
                    cc_b_ ? cc_b_ : "(null)");                                         \
            cc_test_failures++;                                                        \
        }                                                                              \
    } while (0)

#define TEST_MAIN_END()                                                                \
    do {                                                                               \
        if (cc_test_failures) fprintf(stderr, "%d check(s) failed\n", cc_test_failures); \
        return cc_test_failures ? 1 : 0;                                               \
    } while (0)

#endif
