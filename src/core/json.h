/* A small JSON toolkit for cucheck's reports: a bounds-checked recursive-descent parser into a
 * tree (with a nesting limit) and helpers that write JSON values safely (string escaping that
 * never emits invalid JSON, whatever the bytes). Used by the report reader and by the tests that
 * validate the writers' output. */
#ifndef CUCHECK_CORE_JSON_H
#define CUCHECK_CORE_JSON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define CC_JSON_MAX_DEPTH 64 /* deepest nesting of arrays/objects the parser accepts */

typedef enum cc_json_type {
    CC_JSON_NULL = 0,
    CC_JSON_FALSE,
    CC_JSON_TRUE,
    CC_JSON_NUMBER,
    CC_JSON_STRING,
    CC_JSON_ARRAY,
    CC_JSON_OBJECT,
} cc_json_type;

typedef struct cc_json cc_json;
struct cc_json {
    cc_json_type type;
    double number;     /* CC_JSON_NUMBER */
    int is_u64;        /* the number is a non-negative integer literal that fits in uint64_t */
    uint64_t u64;      /* ... its exact value */
    char *str;         /* CC_JSON_STRING: NUL-terminated UTF-8 (may hold embedded NULs) */
    size_t len;        /* CC_JSON_STRING: bytes; ARRAY/OBJECT: number of children */
    cc_json **items;   /* ARRAY: elements; OBJECT: values */
    char **keys;       /* OBJECT: keys, parallel to items */
};

/* Parse exactly one JSON value (surrounded by optional whitespace) from text[0..len). NULL on
 * error, with "offset N: what" in err. */
cc_json *cc_json_parse(const char *text, size_t len, char *err, size_t errlen);
void cc_json_free(cc_json *v);

/* Lookups; all return NULL/defaults on a NULL or mistyped value. */
const cc_json *cc_json_get(const cc_json *obj, const char *key); /* last duplicate wins */
const cc_json *cc_json_at(const cc_json *arr, size_t i);
size_t cc_json_size(const cc_json *v);                           /* children of array/object */
const char *cc_json_str(const cc_json *v);                       /* NULL unless a string */
/* The u64 value of a non-negative integer number, or of a "0x..."/decimal string. 0 on success. */
int cc_json_u64(const cc_json *v, uint64_t *out);

/* Length of the valid UTF-8 sequence at s[0..n), or 0 if it is not valid UTF-8 (overlong
 * forms, surrogates and code points above U+10FFFF are invalid). */
size_t cc_utf8_seq_len(const unsigned char *s, size_t n);

/* ---- writing ---- */
/* Write s as a JSON string literal (with quotes). NULL writes null. Control characters are
 * escaped; bytes that are not valid UTF-8 are written as \ufffd (the replacement character). */
void cc_json_write_str(FILE *out, const char *s);
/* "0x..." hex string literal, for 64-bit addresses that exceed a double's exact range. */
void cc_json_write_hex(FILE *out, uint64_t v);
/* A [a,b,c] array of three unsigned integers. */
void cc_json_write_dim3(FILE *out, const uint32_t v[3]);

#endif
