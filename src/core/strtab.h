/* Interned strings: one copy of each distinct text, kept for the table's life, with its
 * cc_hash_str. The event stream names a launch's kernel on every launch, and the live agent passes
 * the driver's own name pointer, the same one each time: a direct-mapped memo by pointer makes a
 * repeat cost one string compare with the copy, no hashing (a mangled name runs to hundreds of
 * characters, and hashing it byte by byte cost a launch-bound PyTorch step's `run` more than
 * anything else its tool did per launch). The text is always compared: the memory of an unloaded
 * module, or a replay's reused buffer, may hold another name at the same address. Not
 * thread-safe: callers lock. */
#ifndef CUCHECK_CORE_STRTAB_H
#define CUCHECK_CORE_STRTAB_H

#include <stddef.h>
#include <stdint.h>

typedef struct cc_strtab cc_strtab;

cc_strtab *cc_strtab_new(void);
void cc_strtab_free(cc_strtab *t);
/* The interned copy of s (NULL: ""), equal in text and valid until cc_strtab_free; *hash (hash
 * may be NULL) is cc_hash_str of the text. NULL when out of memory (*hash is set then too). */
const char *cc_strtab_intern(cc_strtab *t, const char *s, uint64_t *hash);
/* Distinct texts interned. */
size_t cc_strtab_count(const cc_strtab *t);

#endif
