/* Interned strings (core/strtab.h): equal texts give one copy whatever their pointers, the
 * hash is cc_hash_str's, a buffer reused for another text at the same address gets that text's
 * copy (the memo by pointer never answers for a changed text), NULL is "", many distinct texts
 * stay distinct, and the copies outlive the caller's buffers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check.h"
#include "core/hash.h"
#include "core/strtab.h"

int main(void)
{
    cc_strtab *t = cc_strtab_new();
    CHECK(t != NULL);
    char a[64], b[64];
    snprintf(a, sizeof a, "_ZN2at6native6kernelILi4EEEvv");
    snprintf(b, sizeof b, "_ZN2at6native6kernelILi4EEEvv");
    uint64_t ha = 0, hb = 0;
    const char *ia = cc_strtab_intern(t, a, &ha);
    const char *ib = cc_strtab_intern(t, b, &hb);
    CHECK(ia != NULL && ia == ib);
    CHECK(ia != a && strcmp(ia, a) == 0);
    CHECK(ha == cc_hash_str(a) && hb == ha);
    CHECK(cc_strtab_count(t) == 1);
    /* the same pointer again: the memo's answer, the same copy and hash */
    uint64_t h2 = 0;
    CHECK(cc_strtab_intern(t, a, &h2) == ia && h2 == ha);

    /* the buffer now holds another name (an unloaded module's memory reused) */
    snprintf(a, sizeof a, "_Z5otherPf");
    uint64_t ho = 0;
    const char *io = cc_strtab_intern(t, a, &ho);
    CHECK(io != NULL && io != ia && strcmp(io, "_Z5otherPf") == 0);
    CHECK(ho == cc_hash_str("_Z5otherPf"));
    CHECK(strcmp(ia, "_ZN2at6native6kernelILi4EEEvv") == 0); /* the old copy is untouched */
    CHECK(cc_strtab_count(t) == 2);
    /* back to the first text in the same buffer */
    snprintf(a, sizeof a, "_ZN2at6native6kernelILi4EEEvv");
    CHECK(cc_strtab_intern(t, a, NULL) == ia);

    uint64_t hn = 1;
    const char *in = cc_strtab_intern(t, NULL, &hn);
    CHECK(in != NULL && in[0] == '\0' && hn == cc_hash_str(""));
    CHECK(cc_strtab_intern(t, "", NULL) == in);

    /* many texts, more than the memo holds, each with its own copy; then every one again */
    enum { N = 5000 };
    const char **copies = calloc(N, sizeof *copies);
    CHECK(copies != NULL);
    char buf[32];
    for (int i = 0; i < N; i++) {
        snprintf(buf, sizeof buf, "kernel_%d", i);
        copies[i] = cc_strtab_intern(t, buf, NULL);
        CHECK(copies[i] != NULL && strcmp(copies[i], buf) == 0);
    }
    CHECK(cc_strtab_count(t) == 3 + N);
    for (int i = N - 1; i >= 0; i--) {
        snprintf(buf, sizeof buf, "kernel_%d", i);
        uint64_t h = 0;
        CHECK(cc_strtab_intern(t, buf, &h) == copies[i]);
        CHECK(h == cc_hash_str(buf));
    }
    free(copies);
    cc_strtab_free(t);
    cc_strtab_free(NULL);
    CHECK(cc_strtab_count(NULL) == 0);
    TEST_MAIN_END();
}
