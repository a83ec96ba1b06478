/* cucheck's own reader of Itanium C++ ABI names. libstdc++'s __cxa_demangle gives up on every
 * name longer than 1,024 characters (its recursion guard counts the input's length), and
 * CUTLASS, cuDNN and cuBLASLt kernels are longer; on short names it has no bound on its output
 * (a 300-character name whose substitutions double at every step asks it for gigabytes). The
 * parser (demangle_parse.c) turns a name into a tree of nodes, the printer (demangle_print.c)
 * writes the tree, within bounds, in the runtime's style ("void f<int, 2ul>(float const*)",
 * "{lambda(float*)#1}", "(anonymous namespace)", "[clone .part.0]"): the same text the runtime
 * prints on the 38,000 kernel and host names of the CUDA 13 libraries it was checked against.
 * What they do not know (a construct outside the grammar they read, a malformed or truncated
 * name) makes them give up: the caller asks the runtime or keeps the mangled text. */
#ifndef CUCHECK_SYMBOLS_DEMANGLE_ITANIUM_H
#define CUCHECK_SYMBOLS_DEMANGLE_ITANIUM_H

#include <stddef.h>
#include <stdint.h>

/* The demangled text of mangled[0..len) (a name that starts with "_Z"), malloc'd; NULL when the
 * name is not one this reader understands, or its text would pass the bounds (too_large, may be
 * NULL, is then set: a name whose substitutions expand into megabytes, or memory is short). */
char *cc_itanium_demangle(const char *mangled, size_t len, int *too_large);

/* ---- shared by the parser and the printer ---- */

typedef uint32_t cc_dm_ref; /* 1-based index into the node array; 0: none */

typedef enum cc_dm_kind {
    CC_DM_TEXT,       /* text: a name, a builtin type, "std" */
    CC_DM_NESTED,     /* a::b */
    CC_DM_TEMPLATE,   /* a<list> */
    CC_DM_ABI_TAG,    /* a[abi:text] */
    CC_DM_CTOR,       /* a (the class's base name) */
    CC_DM_DTOR,       /* ~a */
    CC_DM_OPERATOR,   /* operator<text> */
    CC_DM_CONVERSION, /* operator a */
    CC_DM_ENCODING,   /* function: [b ]a(list) cv ref; b the return type of a template */
    CC_DM_QUAL,       /* a cv */
    CC_DM_VENDOR_QUAL, /* a text */
    CC_DM_POINTER,    /* a* */
    CC_DM_LVREF,      /* a& */
    CC_DM_RVREF,      /* a&& */
    CC_DM_FUNCTION,   /* b (list) cv ref: a function type, b its return type */
    CC_DM_ARRAY,      /* a [b] (b a node: a dimension as text or an expression; 0: a [] ) */
    CC_DM_PTR_MEMBER, /* b a::* */
    CC_DM_LOCAL,      /* a::b (a the function's encoding) */
    CC_DM_CLOSURE,    /* {lambda(list)#num} */
    CC_DM_UNNAMED,    /* {unnamed type#num} */
    CC_DM_LITERAL,    /* a typed value: text the digits, flag 1 when negative */
    CC_DM_PACK,       /* a template argument pack: list */
    CC_DM_PACK_EXPANSION, /* a... : a printed once per element of the pack inside it */
    CC_DM_TEMPLATE_PARAM, /* T_: num the index of the argument it names */
    CC_DM_VECTOR,     /* a __vector(text) */
    CC_DM_FUNCTION_PARAM, /* {parm#num} */
    CC_DM_UNARY,      /* text a */
    CC_DM_BINARY,     /* a text b */
    CC_DM_SIZEOF,     /* text (a): sizeof/alignof of a type or an expression */
    CC_DM_DECLTYPE,   /* decltype (a) */
    CC_DM_CLONE,      /* a [clone text] */
    CC_DM_FLOATN,     /* _Float<num> */
} cc_dm_kind;

/* How a literal of a builtin type is printed (cc_dm_node.flag of a CC_DM_TEXT or CC_DM_FLOATN
 * type): 5, 5u, 5l, 5ul, 5ll, 5ull, true, (float)[3f800000], (char)97. CC_DM_NOT_A_BASE marks
 * a name that cannot name a constructor (std::string stands for a longer name). */
enum {
    CC_DM_PRINT_NONE = 0, /* not a builtin type */
    CC_DM_PRINT_DEFAULT,
    CC_DM_PRINT_INT,
    CC_DM_PRINT_UNSIGNED,
    CC_DM_PRINT_LONG,
    CC_DM_PRINT_ULONG,
    CC_DM_PRINT_LONGLONG,
    CC_DM_PRINT_ULONGLONG,
    CC_DM_PRINT_BOOL,
    CC_DM_PRINT_FLOAT,
    CC_DM_PRINT_VOID,
    CC_DM_NOT_A_BASE = 0xff,
};

#define CC_DM_CONST 1u
#define CC_DM_VOLATILE 2u
#define CC_DM_RESTRICT 4u

typedef struct cc_dm_node {
    uint8_t kind;       /* cc_dm_kind */
    uint8_t cv;         /* CC_DM_CONST | CC_DM_VOLATILE | CC_DM_RESTRICT */
    uint8_t ref;        /* functions: 0, 1 (&) or 2 (&&) */
    uint8_t flag;       /* literals: negative; builtin types: CC_DM_PRINT_* */
    cc_dm_ref a, b;
    uint32_t list, nlist; /* children: kids[list .. list + nlist) */
    const char *text;   /* into the mangled name, or a static string */
    uint32_t len;
    uint64_t num;
} cc_dm_node;

typedef struct cc_dm_tree {
    cc_dm_node *nodes;
    size_t nnodes, cap;
    cc_dm_ref *kids;
    size_t nkids, kids_cap;
} cc_dm_tree;

/* The tree of mangled[0..len), its root in *root: 0, or -1 (not understood, out of memory). The
 * tree's arrays are the caller's to free (cc_dm_tree_free), whatever the result. */
int cc_dm_parse(const char *mangled, size_t len, cc_dm_tree *t, cc_dm_ref *root);
void cc_dm_tree_free(cc_dm_tree *t);
/* The text of the tree under root, malloc'd; NULL when it would be too long or too deep (a
 * name whose substitutions nest into megabytes) or memory is short (*too_large set, too_large
 * may be NULL), or names a template argument that is not there. */
char *cc_dm_print(const cc_dm_tree *t, cc_dm_ref root, int *too_large);

#endif
