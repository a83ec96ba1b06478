/* Internals shared by the event stream readers and writers (not a public interface): the
 * .cuevt format constants, the per-kind field tables that drive the binary codec and the text
 * scenario form alike, the per-reader scratch arena, and the text scenario parser. */
#ifndef CUCHECK_CORE_EVTIO_INTERNAL_H
#define CUCHECK_CORE_EVTIO_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/event.h"

/* ---- .cuevt version 1 (docs/formats.md, section "cuevt") ---- */
#define CC_EVT_MAGIC "CUEVT\0\r\n"
#define CC_EVT_MAGIC_LEN 8
#define CC_EVT_VERSION 1u
#define CC_EVT_HEADER_SIZE 48u          /* bytes of the version 1 file header */
#define CC_EVT_MAX_HEADER_SIZE 65536u   /* larger header sizes are rejected as corrupt */
#define CC_EVT_RECORD_HEADER 8u         /* u16 kind, u16 flags, u32 payload length */
#define CC_EVT_MAX_PAYLOAD (64u << 20)  /* bytes of one record's payload */
#define CC_EVT_MAX_STRING (1u << 20)    /* bytes of one string */
#define CC_EVT_MAX_DEPS 65536u          /* dependencies of one graph node */
#define CC_EVT_MAX_FRAMES 1024u         /* frames of one host stack */

/* ---- field tables: one entry per field of an event kind's struct, in format order ---- */
typedef enum cc_evt_ftype {
    CC_FT_U32,    /* uint32_t, decimal */
    CC_FT_I32,    /* int32_t, decimal */
    CC_FT_U64,    /* uint64_t, decimal */
    CC_FT_HEX32,  /* uint32_t flags or bit patterns, printed 0x-hex */
    CC_FT_ADDR,   /* uint64_t address, printed 0x-hex; text may use a symbolic name */
    CC_FT_HANDLE, /* uint64_t opaque id; text may use a symbolic name */
    CC_FT_STREAM, /* uint64_t stream id; also `legacy` (0) and `per_thread` (2) */
    CC_FT_ENUM,   /* uint32_t with names (see name / from_name) */
    CC_FT_STR,    /* const char * */
    CC_FT_DIM3,   /* uint32_t[3] */
    CC_FT_DEPS,   /* uint32_t count at off2, const uint64_t * at off */
    CC_FT_FRAMES, /* uint32_t count at off2, const cc_stack_frame * at off */
} cc_evt_ftype;

typedef struct cc_evt_field {
    const char *key;        /* struct field name = scenario key */
    cc_evt_ftype type;
    size_t off;             /* offset in cc_event */
    size_t off2;            /* DEPS / FRAMES: offset of the count */
    const char *(*name)(uint32_t);      /* ENUM */
    int (*from_name)(const char *);     /* ENUM */
    int appended;           /* 1: added after the kind's first version; a payload that ends
                             * right before it (an older writer) reads it as 0 */
} cc_evt_field;

/* Fields of a known kind (NULL and *n = 0 for unknown kinds). */
const cc_evt_field *cc_evt_fields(uint32_t kind, size_t *n);

/* ---- scratch arena: memory for the strings and arrays of the event last read ---- */
typedef struct cc_evt_arena_chunk cc_evt_arena_chunk;
typedef struct cc_evt_arena {
    cc_evt_arena_chunk *head; /* chunk being filled; older chunks follow */
} cc_evt_arena;

void *cc_evt_arena_alloc(cc_evt_arena *a, size_t size, size_t align); /* NULL: out of memory */
char *cc_evt_arena_strndup(cc_evt_arena *a, const char *s, size_t n);  /* NUL-terminated copy */
void cc_evt_arena_reset(cc_evt_arena *a); /* keeps one chunk for reuse */
void cc_evt_arena_free(cc_evt_arena *a);

/* ---- binary codec ---- */
/* Bytes the record for ev takes (header included); 0 if ev cannot be encoded. */
size_t cc_evt_encoded_size(const cc_event *ev);
/* Write the version 1 file header (CC_EVT_HEADER_SIZE bytes) into buf. */
void cc_evt_encode_file_header(unsigned char *buf, uint32_t pid, uint64_t wall_ns,
                               uint64_t mono_ns);
/* Decode the payload of a record of a known kind. payload_off is the payload's offset in the
 * input, for messages. 0 ok, -1 error in err ("offset N: ..."). */
int cc_evt_decode_payload(uint32_t kind, const unsigned char *payload, size_t len,
                          uint64_t payload_off, cc_event *ev, cc_evt_arena *a, char *err,
                          size_t errlen);

/* ---- text scenario form ---- */
typedef struct cc_scenario_parser cc_scenario_parser;
/* The parser reads data[0..size) (not copied: it must outlive the parser). */
cc_scenario_parser *cc_scenario_parser_new(const char *data, size_t size);
/* 1 event, 0 end, -1 error ("line N: ..."); strings and arrays live in a until its reset. */
int cc_scenario_parser_next(cc_scenario_parser *p, cc_event *ev, cc_evt_arena *a, char *err,
                            size_t errlen);
void cc_scenario_parser_free(cc_scenario_parser *p);

/* Symbolic names of the scenario form, interned to stable ids (scenario_intern.c). */
#define CC_SCENARIO_HANDLE_BASE 0x10000ull      /* first symbolic handle is BASE + 1 */
#define CC_SCENARIO_ADDR_BASE 0x7f0000000000ull /* symbolic address n is BASE + n * STRIDE */
#define CC_SCENARIO_ADDR_STRIDE 0x100000000ull
typedef struct cc_scenario_names cc_scenario_names;
cc_scenario_names *cc_scenario_names_new(void);
/* The 1-based index of name (added on first use); 0 on allocation failure. */
uint64_t cc_scenario_names_intern(cc_scenario_names *t, const char *name, size_t len);
void cc_scenario_names_free(cc_scenario_names *t);

#endif
