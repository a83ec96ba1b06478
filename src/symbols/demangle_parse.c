/* The parser of cucheck's Itanium demangler (demangle_itanium.h): recursive descent over the
 * mangling grammar of the Itanium C++ ABI, the parts kernel names use: nested and local names,
 * templates and their argument packs, substitutions (S_, S0_, St, Sa, ...), template
 * parameters (T_), builtin, qualified, pointer, reference, function, array, pointer-to-member and
 * vector types, lambdas (Ul...E_) and unnamed types (Ut_), the anonymous namespace, ABI tags,
 * constructors, destructors and operators, literals, simple expressions (arithmetic and
 * comparisons, sizeof, decltype) and clone suffixes. Everything else (special names such as
 * vtables, C++20 template lambdas, casts and calls inside expressions, ...) makes it give up.
 *
 * Substitution candidates are recorded in the order the ABI defines (every prefix of a nested
 * name but the whole, an unscoped template name, every type that is not builtin and not itself
 * a substitution); T_ stays an index, which the printer resolves against the template it is
 * printed in (a substituted T_ can name different arguments in different places, as it does for
 * the C++ runtime). Depth and size are bounded: a hostile name cannot exhaust the stack or
 * memory. */
#include "symbols/demangle_itanium.h"

#include <stdlib.h>
#include <string.h>
#include "core/grow.h"

#define DM_MAX_DEPTH 512    /* nested parse calls */
#define DM_NODES_PER_CHAR 8 /* nodes per character of input, at most */

typedef struct parser {
    const char *s;
    size_t len, pos;
    cc_dm_tree *t;
    cc_dm_ref *subs;        /* substitution candidates, in order */
    size_t nsubs, subs_cap;
    cc_dm_ref *stack;       /* children of the lists being read */
    size_t nstack, stack_cap;
    size_t max_nodes;
    int depth;
    int in_conversion; /* the type of a conversion operator: T_ I...E is T_ and the operator's
                        * own template arguments */
} parser;

typedef struct name_state {
    int ends_with_template_args; /* the function is a template: its return type is mangled */
    int ctor_dtor_conversion;    /* ... unless it is a constructor, destructor or conversion */
    uint8_t cv, ref;             /* qualifiers of a member function (N K ... E) */
} name_state;

static cc_dm_ref parse_type(parser *p);
static cc_dm_ref parse_name(parser *p, name_state *st);
static cc_dm_ref parse_encoding(parser *p);
static cc_dm_ref parse_expression(parser *p);
static cc_dm_ref parse_expr_primary(parser *p);
static int parse_template_args(parser *p, uint32_t *list, uint32_t *nlist);

/* ---- input ---- */

static char peek(const parser *p, size_t k) {
    return p->pos + k < p->len ? p->s[p->pos + k] : '\0';
}

static int consume(parser *p, char c) {
    if (peek(p, 0) != c) return 0;
    p->pos++;
    return 1;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }
static int is_lower(char c) { return c >= 'a' && c <= 'z'; }
static int is_upper(char c) { return c >= 'A' && c <= 'Z'; }

/* A decimal number (no sign): 0, or -1 when there is none or it overflows. */
static int parse_number(parser *p, uint64_t *out) {
    uint64_t v = 0;
    if (!is_digit(peek(p, 0))) return -1;
    while (is_digit(peek(p, 0))) {
        uint64_t d = (uint64_t)(p->s[p->pos++] - '0');
        if (v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

/* ---- the tree ---- */

static cc_dm_node *node_at(parser *p, cc_dm_ref r) { return &p->t->nodes[r - 1]; }

static cc_dm_ref new_node(parser *p, cc_dm_kind kind) {
    if (p->t->nnodes >= p->max_nodes) return 0;
    cc_dm_node *n = CC_ARRAY_PUSH(p->t->nodes, p->t->nnodes, p->t->cap);
    if (!n) return 0;
    memset(n, 0, sizeof *n);
    n->kind = (uint8_t)kind;
    return (cc_dm_ref)p->t->nnodes;
}

static cc_dm_ref text_node(parser *p, const char *text, size_t len, uint8_t flag) {
    cc_dm_ref r = new_node(p, CC_DM_TEXT);
    if (!r) return 0;
    node_at(p, r)->text = text;
    node_at(p, r)->len = (uint32_t)len;
    node_at(p, r)->flag = flag;
    return r;
}

static cc_dm_ref static_text(parser *p, const char *text) {
    return text_node(p, text, strlen(text), CC_DM_PRINT_NONE);
}

static cc_dm_ref pair_node(parser *p, cc_dm_kind kind, cc_dm_ref a, cc_dm_ref b) {
    if (!a) return 0;
    cc_dm_ref r = new_node(p, kind);
    if (!r) return 0;
    node_at(p, r)->a = a;
    node_at(p, r)->b = b;
    return r;
}

static int push_sub(parser *p, cc_dm_ref r) {
    cc_dm_ref *slot = r ? CC_ARRAY_PUSH(p->subs, p->nsubs, p->subs_cap) : NULL;
    if (!slot) return -1;
    *slot = r;
    return 0;
}

static int push_item(parser *p, cc_dm_ref r) {
    cc_dm_ref *slot = r ? CC_ARRAY_PUSH(p->stack, p->nstack, p->stack_cap) : NULL;
    if (!slot) return -1;
    *slot = r;
    return 0;
}

/* The items pushed since mark become a list of the tree. */
static int end_list(parser *p, size_t mark, uint32_t *list, uint32_t *nlist) {
    size_t n = p->nstack - mark;
    cc_dm_tree *t = p->t;
    if (CC_ARRAY_RESERVE(t->kids, t->kids_cap, t->nkids + n) != 0) return -1;
    if (n) memcpy(t->kids + t->nkids, p->stack + mark, n * sizeof *p->stack);
    *list = (uint32_t)t->nkids;
    *nlist = (uint32_t)n;
    t->nkids += n;
    p->nstack = mark;
    return 0;
}

/* ---- names ---- */

static cc_dm_ref parse_source_name(parser *p) {
    uint64_t n;
    if (parse_number(p, &n) != 0 || n == 0 || n > p->len - p->pos) return 0;
    const char *id = p->s + p->pos;
    p->pos += (size_t)n;
    /* GCC's and nvcc's anonymous namespace: _GLOBAL_ then '.', '_' or '$', then 'N' */
    if (n >= 10 && memcmp(id, "_GLOBAL_", 8) == 0 && (id[8] == '.' || id[8] == '_' || id[8] == '$') &&
        id[9] == 'N')
        return static_text(p, "(anonymous namespace)");
    return text_node(p, id, (size_t)n, CC_DM_PRINT_NONE);
}

typedef struct op_info {
    char code[3];
    const char *name;
    uint8_t arity;      /* in expressions: 1 unary, 2 binary, 0 not read there */
} op_info;

/* The operators an <operator-name> or a simple expression may use (names as the runtime's
 * demangler prints them). */
static const op_info k_ops[] = {
    {"aN", "&=", 0},  {"aS", "=", 0},  {"aa", "&&", 2},       {"ad", "&", 1},   {"an", "&", 2},
    {"cl", "()", 0},  {"cm", ",", 0},  {"co", "~", 1},        {"dV", "/=", 0},  {"da", "delete[] ", 0},
    {"de", "*", 1},   {"dl", "delete ", 0}, {"dv", "/", 2},   {"eO", "^=", 0},  {"eo", "^", 2},
    {"eq", "==", 2},  {"ge", ">=", 2}, {"gt", ">", 2},        {"ix", "[]", 0},  {"lS", "<<=", 0},
    {"le", "<=", 2},  {"ls", "<<", 2}, {"lt", "<", 2},        {"mI", "-=", 0},  {"mL", "*=", 0},
    {"mi", "-", 2},   {"ml", "*", 2},  {"mm", "--", 0},       {"na", "new[]", 0}, {"ne", "!=", 2},
    {"ng", "-", 1},   {"nt", "!", 1},  {"nw", "new", 0},      {"oR", "|=", 0},  {"oo", "||", 2},
    {"or", "|", 2},   {"pL", "+=", 0}, {"pl", "+", 2},        {"pm", "->*", 0}, {"pp", "++", 0},
    {"ps", "+", 1},   {"pt", "->", 0}, {"rM", "%=", 0},       {"rS", ">>=", 0}, {"rm", "%", 2},
    {"rs", ">>", 2},  {"ss", "<=>", 0},
};

static const op_info *find_op(char a, char b) {
    for (size_t i = 0; i < sizeof k_ops / sizeof k_ops[0]; i++)
        if (k_ops[i].code[0] == a && k_ops[i].code[1] == b) return &k_ops[i];
    return NULL;
}

static cc_dm_ref parse_operator_name(parser *p, name_state *st) {
    char a = peek(p, 0), b = peek(p, 1);
    if (a == 'c' && b == 'v') { /* conversion: operator T */
        p->pos += 2;
        int outer = p->in_conversion;
        p->in_conversion = 1;
        cc_dm_ref type = parse_type(p);
        p->in_conversion = outer;
        if (st) st->ctor_dtor_conversion = 1;
        return pair_node(p, CC_DM_CONVERSION, type, 0);
    }
    const op_info *op = find_op(a, b);
    if (!op) return 0;
    p->pos += 2;
    cc_dm_ref r = new_node(p, CC_DM_OPERATOR);
    if (!r) return 0;
    node_at(p, r)->text = op->name;
    node_at(p, r)->len = (uint32_t)strlen(op->name);
    return r;
}

/* Ut [n] _ and Ul <parameter types> E [n] _ */
static cc_dm_ref parse_unnamed(parser *p) {
    int closure = peek(p, 1) == 'l';
    uint32_t list = 0, nlist = 0;
    p->pos += 2;
    if (closure) {
        char c = peek(p, 0), d = peek(p, 1);
        if (c == 'T' && (d == 'y' || d == 'n' || d == 't' || d == 'p')) return 0; /* C++20 */
        size_t mark = p->nstack;
        if (c == 'v' && peek(p, 1) == 'E') p->pos++;
        while (!consume(p, 'E')) {
            if (p->pos >= p->len || push_item(p, parse_type(p)) != 0) return 0;
        }
        if (end_list(p, mark, &list, &nlist) != 0) return 0;
    }
    uint64_t n = 0;
    int numbered = is_digit(peek(p, 0));
    if (numbered && (parse_number(p, &n) != 0 || n > UINT64_MAX - 2)) return 0;
    if (!consume(p, '_')) return 0;
    cc_dm_ref r = new_node(p, closure ? CC_DM_CLOSURE : CC_DM_UNNAMED);
    if (!r) return 0;
    node_at(p, r)->num = numbered ? n + 2 : 1;
    node_at(p, r)->list = list;
    node_at(p, r)->nlist = nlist;
    return r;
}

static cc_dm_ref parse_abi_tags(parser *p, cc_dm_ref r) {
    while (r && peek(p, 0) == 'B') {
        p->pos++;
        cc_dm_ref tag = parse_source_name(p);
        if (!tag) return 0;
        const cc_dm_node *tn = node_at(p, tag);
        const char *text = tn->text;
        uint32_t len = tn->len;
        r = pair_node(p, CC_DM_ABI_TAG, r, 0);
        if (r) {
            node_at(p, r)->text = text;
            node_at(p, r)->len = len;
        }
    }
    return r;
}

static cc_dm_ref parse_unqualified(parser *p, name_state *st) {
    consume(p, 'L'); /* internal linkage (GCC) */
    char c = peek(p, 0);
    cc_dm_ref r;
    if (is_digit(c)) r = parse_source_name(p);
    else if (c == 'U' && (peek(p, 1) == 't' || peek(p, 1) == 'l')) r = parse_unnamed(p);
    else if (is_lower(c)) r = parse_operator_name(p, st);
    else return 0;
    return parse_abi_tags(p, r);
}

/* The last name of a prefix: what a constructor or destructor is called. */
static cc_dm_ref base_name(parser *p, cc_dm_ref r) {
    for (int guard = 0; r && guard < DM_MAX_DEPTH; guard++) {
        const cc_dm_node *n = node_at(p, r);
        switch (n->kind) {
        case CC_DM_TEXT: return n->flag == CC_DM_NOT_A_BASE ? 0 : r;
        case CC_DM_NESTED: r = n->b; break;
        case CC_DM_TEMPLATE:
        case CC_DM_ABI_TAG: r = n->a; break;
        default: return 0;
        }
    }
    return 0;
}

static cc_dm_ref parse_ctor_dtor(parser *p, cc_dm_ref sofar, name_state *st) {
    char c = peek(p, 0), d = peek(p, 1);
    int ctor = c == 'C';
    if (ctor ? !(d >= '1' && d <= '5') : !(d == '0' || d == '1' || d == '2' || d == '4' || d == '5'))
        return 0; /* inheriting constructors (CI1, CI2) included */
    p->pos += 2;
    if (st) st->ctor_dtor_conversion = 1;
    return parse_abi_tags(p, pair_node(p, ctor ? CC_DM_CTOR : CC_DM_DTOR, base_name(p, sofar), 0));
}

/* St, Sa, Sb, Ss, Si, So, Sd, S_, S<seq-id>_ (the 'S' not read yet) */
static cc_dm_ref parse_substitution(parser *p) {
    static const struct {
        char code;
        const char *name;
    } k_std[] = {{'a', "allocator"}, {'b', "basic_string"}, {'s', "std::string"},
                 {'i', "std::istream"}, {'o', "std::ostream"}, {'d', "std::iostream"}};
    p->pos++;
    char c = peek(p, 0);
    for (size_t i = 0; i < sizeof k_std / sizeof k_std[0]; i++) {
        if (c != k_std[i].code) continue;
        p->pos++;
        if (c == 'a' || c == 'b')
            return pair_node(p, CC_DM_NESTED, static_text(p, "std"), static_text(p, k_std[i].name));
        return text_node(p, k_std[i].name, strlen(k_std[i].name), CC_DM_NOT_A_BASE);
    }
    uint64_t idx = 0;
    if (!consume(p, '_')) {
        uint64_t seq = 0;
        if (!is_digit(c) && !is_upper(c)) return 0;
        while (is_digit(peek(p, 0)) || is_upper(peek(p, 0))) {
            char x = p->s[p->pos++];
            uint64_t v = is_digit(x) ? (uint64_t)(x - '0') : (uint64_t)(x - 'A') + 10;
            if (seq > (UINT64_MAX - v) / 36) return 0;
            seq = seq * 36 + v;
        }
        if (!consume(p, '_') || seq == UINT64_MAX) return 0;
        idx = seq + 1;
    }
    return idx < p->nsubs ? p->subs[idx] : 0;
}

/* T_ or T<n>_ : an index into the arguments of the template it is printed in. */
static cc_dm_ref parse_template_param(parser *p) {
    uint64_t idx = 0;
    p->pos++;
    if (!consume(p, '_')) {
        if (parse_number(p, &idx) != 0 || !consume(p, '_') || idx == UINT64_MAX) return 0;
        idx++;
    }
    cc_dm_ref r = new_node(p, CC_DM_TEMPLATE_PARAM);
    if (r) node_at(p, r)->num = idx;
    return r;
}

static uint8_t parse_cv(parser *p) {
    uint8_t cv = 0;
    if (consume(p, 'r')) cv |= CC_DM_RESTRICT;
    if (consume(p, 'V')) cv |= CC_DM_VOLATILE;
    if (consume(p, 'K')) cv |= CC_DM_CONST;
    return cv;
}

static cc_dm_ref parse_decltype(parser *p) {
    p->pos += 2; /* Dt or DT */
    cc_dm_ref e = parse_expression(p);
    if (!e || !consume(p, 'E')) return 0;
    return pair_node(p, CC_DM_DECLTYPE, e, 0);
}

static cc_dm_ref parse_nested(parser *p, name_state *st) {
    p->pos++; /* N */
    uint8_t cv = parse_cv(p), ref = 0;
    if (consume(p, 'R')) ref = 1;
    else if (consume(p, 'O')) ref = 2;
    if (st) {
        st->cv = cv;
        st->ref = ref;
    }
    cc_dm_ref sofar = 0;
    while (!consume(p, 'E')) {
        char c = peek(p, 0), d = peek(p, 1);
        cc_dm_ref comp;
        if (c == '\0') return 0;
        if (c == 'I') {
            uint32_t list, nlist;
            if (!sofar || parse_template_args(p, &list, &nlist) != 0) return 0;
            sofar = pair_node(p, CC_DM_TEMPLATE, sofar, 0);
            if (!sofar) return 0;
            node_at(p, sofar)->list = list;
            node_at(p, sofar)->nlist = nlist;
            if (st) st->ends_with_template_args = 1;
            if (push_sub(p, sofar) != 0) return 0;
            continue;
        }
        if (c == 'S' && d == 't') {
            if (sofar) return 0;
            p->pos += 2;
            sofar = static_text(p, "std");
            if (!sofar) return 0;
            continue;
        }
        if (c == 'S') { /* a substitution starts the prefix; it is not a candidate again */
            if (sofar) return 0;
            sofar = parse_substitution(p);
            if (!sofar) return 0;
            continue;
        }
        if (c == 'T') comp = parse_template_param(p);
        else if (c == 'D' && (d == 't' || d == 'T')) comp = parse_decltype(p);
        else if (c == 'C' || (c == 'D' && d != 'C')) comp = sofar ? parse_ctor_dtor(p, sofar, st) : 0;
        else comp = parse_unqualified(p, st);
        if (!comp) return 0;
        sofar = sofar ? pair_node(p, CC_DM_NESTED, sofar, comp) : comp;
        if (st) st->ends_with_template_args = 0;
        if (push_sub(p, sofar) != 0) return 0;
    }
    /* the whole name is no prefix: not a candidate (a type adds itself) */
    if (!sofar || p->nsubs == 0) return 0;
    p->nsubs--;
    return sofar;
}

/* _ <digit> or __ <number> _ after a local entity (not printed). */
static void skip_discriminator(parser *p) {
    if (peek(p, 0) != '_') return;
    if (is_digit(peek(p, 1))) {
        p->pos += 2;
    } else if (peek(p, 1) == '_' && is_digit(peek(p, 2))) {
        size_t at = p->pos;
        uint64_t n;
        p->pos += 2;
        if (parse_number(p, &n) != 0 || !consume(p, '_')) p->pos = at;
    }
}

static cc_dm_ref parse_local(parser *p, name_state *st) {
    p->pos++; /* Z */
    cc_dm_ref enc = parse_encoding(p);
    if (!enc || !consume(p, 'E')) return 0;
    cc_dm_ref entity;
    if (consume(p, 's')) entity = static_text(p, "string literal");
    else if (peek(p, 0) == 'd') return 0; /* default-argument scopes */
    else entity = parse_name(p, st);
    skip_discriminator(p);
    return entity ? pair_node(p, CC_DM_LOCAL, enc, entity) : 0;
}

static cc_dm_ref parse_name(parser *p, name_state *st) {
    char c = peek(p, 0);
    cc_dm_ref r;
    if (++p->depth > DM_MAX_DEPTH) return 0;
    if (c == 'N') r = parse_nested(p, st);
    else if (c == 'Z') r = parse_local(p, st);
    else {
        int is_sub = c == 'S' && peek(p, 1) != 't';
        if (is_sub) {
            r = parse_substitution(p);
        } else {
            int in_std = c == 'S';
            if (in_std) p->pos += 2;
            r = parse_unqualified(p, st);
            if (in_std) r = pair_node(p, CC_DM_NESTED, static_text(p, "std"), r);
        }
        if (r && peek(p, 0) == 'I') {
            uint32_t list, nlist;
            if (!is_sub && push_sub(p, r) != 0) r = 0; /* an unscoped template name */
            if (r && parse_template_args(p, &list, &nlist) == 0) {
                r = pair_node(p, CC_DM_TEMPLATE, r, 0);
                if (r) {
                    node_at(p, r)->list = list;
                    node_at(p, r)->nlist = nlist;
                }
                if (st) st->ends_with_template_args = 1;
            } else {
                r = 0;
            }
        } else if (is_sub) {
            r = 0; /* a substitution as a name must be a template's */
        }
    }
    p->depth--;
    return r;
}

/* ---- types ---- */

static const struct {
    char code;
    const char *name;
    uint8_t print;
} k_builtins[] = {
    {'v', "void", CC_DM_PRINT_VOID},     {'w', "wchar_t", CC_DM_PRINT_DEFAULT},
    {'b', "bool", CC_DM_PRINT_BOOL},     {'c', "char", CC_DM_PRINT_DEFAULT},
    {'a', "signed char", CC_DM_PRINT_DEFAULT}, {'h', "unsigned char", CC_DM_PRINT_DEFAULT},
    {'s', "short", CC_DM_PRINT_DEFAULT}, {'t', "unsigned short", CC_DM_PRINT_DEFAULT},
    {'i', "int", CC_DM_PRINT_INT},       {'j', "unsigned int", CC_DM_PRINT_UNSIGNED},
    {'l', "long", CC_DM_PRINT_LONG},     {'m', "unsigned long", CC_DM_PRINT_ULONG},
    {'x', "long long", CC_DM_PRINT_LONGLONG}, {'y', "unsigned long long", CC_DM_PRINT_ULONGLONG},
    {'n', "__int128", CC_DM_PRINT_DEFAULT}, {'o', "unsigned __int128", CC_DM_PRINT_DEFAULT},
    {'f', "float", CC_DM_PRINT_FLOAT},   {'d', "double", CC_DM_PRINT_FLOAT},
    {'e', "long double", CC_DM_PRINT_FLOAT}, {'g', "__float128", CC_DM_PRINT_FLOAT},
    {'z', "...", CC_DM_PRINT_DEFAULT},
}, k_builtins_d[] = {
    {'d', "decimal64", CC_DM_PRINT_DEFAULT}, {'e', "decimal128", CC_DM_PRINT_DEFAULT},
    {'f', "decimal32", CC_DM_PRINT_DEFAULT}, {'h', "half", CC_DM_PRINT_FLOAT},
    {'i', "char32_t", CC_DM_PRINT_DEFAULT}, {'s', "char16_t", CC_DM_PRINT_DEFAULT},
    {'u', "char8_t", CC_DM_PRINT_DEFAULT},  {'a', "auto", CC_DM_PRINT_DEFAULT},
    {'c', "decltype(auto)", CC_DM_PRINT_DEFAULT}, {'n', "decltype(nullptr)", CC_DM_PRINT_DEFAULT},
};

/* A builtin type at the input (reading it), or 0 when there is none. */
static cc_dm_ref parse_builtin(parser *p) {
    char c = peek(p, 0), d = peek(p, 1);
    if (c == 'D') {
        if (d == 'F') { /* _FloatN */
            uint64_t n;
            size_t at = p->pos;
            p->pos += 2;
            if (parse_number(p, &n) != 0 || !consume(p, '_')) {
                p->pos = at;
                return 0;
            }
            cc_dm_ref r = new_node(p, CC_DM_FLOATN);
            if (r) {
                node_at(p, r)->num = n;
                node_at(p, r)->flag = CC_DM_PRINT_FLOAT;
            }
            return r;
        }
        for (size_t i = 0; i < sizeof k_builtins_d / sizeof k_builtins_d[0]; i++) {
            if (k_builtins_d[i].code != d) continue;
            p->pos += 2;
            return text_node(p, k_builtins_d[i].name, strlen(k_builtins_d[i].name),
                             k_builtins_d[i].print);
        }
        return 0;
    }
    for (size_t i = 0; i < sizeof k_builtins / sizeof k_builtins[0]; i++) {
        if (k_builtins[i].code != c) continue;
        p->pos++;
        return text_node(p, k_builtins[i].name, strlen(k_builtins[i].name), k_builtins[i].print);
    }
    return 0;
}

/* Parameter types up to 'E' (or a ref-qualifier before it, or the end of an encoding); a lone
 * 'v' is an empty list. */
static int parse_params(parser *p, int encoding, uint32_t *list, uint32_t *nlist) {
    size_t mark = p->nstack;
    for (size_t n = 0;; n++) {
        char c = peek(p, 0), d = peek(p, 1);
        if (encoding ? (c == '\0' || c == 'E' || c == '.') : (c == 'E' || ((c == 'R' || c == 'O') && d == 'E')))
            break;
        if (c == '\0') return -1;
        int lone_void = n == 0 && c == 'v' &&
                        (encoding ? (d == '\0' || d == 'E' || d == '.') : (d == 'E' || ((d == 'R' || d == 'O') && peek(p, 2) == 'E')));
        if (lone_void) {
            p->pos++;
            break;
        }
        if (push_item(p, parse_type(p)) != 0) return -1;
    }
    return end_list(p, mark, list, nlist);
}

static cc_dm_ref parse_function_type(parser *p) {
    p->pos++; /* F */
    consume(p, 'Y');
    cc_dm_ref ret = parse_type(p);
    uint32_t list, nlist;
    if (!ret || parse_params(p, 0, &list, &nlist) != 0) return 0;
    uint8_t ref = consume(p, 'R') ? 1 : consume(p, 'O') ? 2 : 0;
    if (!consume(p, 'E')) return 0;
    cc_dm_ref r = new_node(p, CC_DM_FUNCTION);
    if (!r) return 0;
    cc_dm_node *n = node_at(p, r);
    n->b = ret;
    n->list = list;
    n->nlist = nlist;
    n->ref = ref;
    return r;
}

static cc_dm_ref parse_array(parser *p) {
    cc_dm_ref dim = 0;
    p->pos++; /* A */
    if (is_digit(peek(p, 0))) {
        size_t at = p->pos;
        while (is_digit(peek(p, 0))) p->pos++;
        dim = text_node(p, p->s + at, p->pos - at, CC_DM_PRINT_NONE);
        if (!dim) return 0;
    } else if (peek(p, 0) != '_') {
        dim = parse_expression(p);
        if (!dim) return 0;
    }
    if (!consume(p, '_')) return 0;
    cc_dm_ref elem = parse_type(p);
    return elem ? pair_node(p, CC_DM_ARRAY, elem, dim) : 0;
}

static cc_dm_ref parse_type(parser *p) {
    char c = peek(p, 0), d = peek(p, 1);
    cc_dm_ref r = 0;
    if (++p->depth > DM_MAX_DEPTH) return 0;
    switch (c) {
    case 'r':
    case 'V':
    case 'K': {
        uint8_t cv = parse_cv(p);
        cc_dm_ref child = parse_type(p);
        if (!child) break;
        if (node_at(p, child)->kind == CC_DM_FUNCTION) { /* a const member function's type */
            cc_dm_node copy = *node_at(p, child);
            r = new_node(p, CC_DM_FUNCTION);
            if (r) {
                *node_at(p, r) = copy;
                node_at(p, r)->cv |= cv;
            }
        } else {
            r = pair_node(p, CC_DM_QUAL, child, 0);
            if (r) node_at(p, r)->cv = cv;
        }
        break;
    }
    case 'U': { /* a vendor qualifier: U <source-name> <type> */
        p->pos++;
        cc_dm_ref q = is_digit(peek(p, 0)) ? parse_source_name(p) : 0;
        if (!q || peek(p, 0) == 'I') break;
        const char *text = node_at(p, q)->text;
        uint32_t len = node_at(p, q)->len;
        r = pair_node(p, CC_DM_VENDOR_QUAL, parse_type(p), 0);
        if (r) {
            node_at(p, r)->text = text;
            node_at(p, r)->len = len;
        }
        break;
    }
    case 'P':
    case 'R':
    case 'O':
        p->pos++;
        r = pair_node(p, c == 'P' ? CC_DM_POINTER : c == 'R' ? CC_DM_LVREF : CC_DM_RVREF,
                      parse_type(p), 0);
        break;
    case 'F': r = parse_function_type(p); break;
    case 'A': r = parse_array(p); break;
    case 'M': {
        p->pos++;
        cc_dm_ref cls = parse_type(p);
        cc_dm_ref mem = cls ? parse_type(p) : 0;
        r = mem ? pair_node(p, CC_DM_PTR_MEMBER, cls, mem) : 0;
        break;
    }
    case 'T':
        if (d == 's' || d == 'u' || d == 'e') break; /* elaborated type specifiers */
        r = parse_template_param(p);
        if (r && peek(p, 0) == 'I' && !p->in_conversion) { /* a template template parameter
                                                              * with its arguments */
            uint32_t list, nlist;
            if (push_sub(p, r) != 0 || parse_template_args(p, &list, &nlist) != 0) {
                r = 0;
                break;
            }
            r = pair_node(p, CC_DM_TEMPLATE, r, 0);
            if (r) {
                node_at(p, r)->list = list;
                node_at(p, r)->nlist = nlist;
            }
        }
        break;
    case 'D':
        if (d == 't' || d == 'T') {
            r = parse_decltype(p);
        } else if (d == 'p') {
            p->pos += 2;
            r = pair_node(p, CC_DM_PACK_EXPANSION, parse_type(p), 0);
        } else if (d == 'v') {
            size_t at;
            p->pos += 2;
            at = p->pos;
            if (!is_digit(peek(p, 0))) break;
            while (is_digit(peek(p, 0))) p->pos++;
            size_t dl = p->pos - at;
            if (!consume(p, '_')) break;
            r = pair_node(p, CC_DM_VECTOR, parse_type(p), 0);
            if (r) {
                node_at(p, r)->text = p->s + at;
                node_at(p, r)->len = (uint32_t)dl;
            }
        } else {
            r = parse_builtin(p);
            p->depth--;
            return r; /* builtin types are no candidates */
        }
        break;
    case 'S':
        if (d != 't') {
            r = parse_substitution(p);
            if (r && peek(p, 0) == 'I') {
                uint32_t list, nlist;
                if (parse_template_args(p, &list, &nlist) != 0) {
                    r = 0;
                    break;
                }
                r = pair_node(p, CC_DM_TEMPLATE, r, 0);
                if (r) {
                    node_at(p, r)->list = list;
                    node_at(p, r)->nlist = nlist;
                }
                break;
            }
            p->depth--;
            return r; /* a substitution is not a candidate again */
        }
        r = parse_name(p, NULL);
        break;
    case 'u': /* a vendor's builtin type: a candidate, unlike the standard ones */
        p->pos++;
        r = parse_source_name(p);
        break;
    default:
        if (is_digit(c) || c == 'N' || c == 'Z') {
            r = parse_name(p, NULL);
        } else {
            r = parse_builtin(p);
            p->depth--;
            return r;
        }
        break;
    }
    if (r && push_sub(p, r) != 0) r = 0;
    p->depth--;
    return r;
}

/* ---- template arguments, literals, expressions ---- */

static cc_dm_ref parse_template_arg(parser *p) {
    char c = peek(p, 0);
    cc_dm_ref r;
    if (c == 'X') {
        p->pos++;
        r = parse_expression(p);
        return r && consume(p, 'E') ? r : 0;
    }
    if (c == 'J') { /* an argument pack */
        size_t mark = p->nstack;
        uint32_t list, nlist;
        p->pos++;
        while (!consume(p, 'E')) {
            if (peek(p, 0) == '\0' || push_item(p, parse_template_arg(p)) != 0) return 0;
        }
        if (end_list(p, mark, &list, &nlist) != 0) return 0;
        r = new_node(p, CC_DM_PACK);
        if (r) {
            node_at(p, r)->list = list;
            node_at(p, r)->nlist = nlist;
        }
        return r;
    }
    if (c == 'L') return parse_expr_primary(p);
    return parse_type(p);
}

/* I <template-arg>+ E */
static int parse_template_args(parser *p, uint32_t *list, uint32_t *nlist) {
    size_t mark = p->nstack;
    if (++p->depth > DM_MAX_DEPTH) return -1;
    p->pos++; /* I */
    while (!consume(p, 'E')) {
        cc_dm_ref arg = peek(p, 0) ? parse_template_arg(p) : 0;
        if (push_item(p, arg) != 0) return -1;
    }
    p->depth--;
    return end_list(p, mark, list, nlist);
}

/* L <type> <value> E, L <mangled-name> E, LDnE */
static cc_dm_ref parse_expr_primary(parser *p) {
    p->pos++; /* L */
    if (peek(p, 0) == '_' && peek(p, 1) == 'Z') p->pos += 2;
    else if (peek(p, 0) == 'Z') p->pos++;
    else {
        cc_dm_ref type = parse_type(p);
        if (!type) return 0;
        const cc_dm_node *tn = node_at(p, type);
        if (tn->kind == CC_DM_TEXT && tn->len == 17 && memcmp(tn->text, "decltype(nullptr)", 17) == 0 &&
            consume(p, 'E'))
            return type; /* LDnE */
        int neg = consume(p, 'n');
        size_t at = p->pos;
        while (peek(p, 0) != 'E') {
            if (peek(p, 0) == '\0') return 0;
            p->pos++;
        }
        size_t vlen = p->pos - at;
        p->pos++;
        cc_dm_ref r = pair_node(p, CC_DM_LITERAL, type, 0);
        if (r) {
            node_at(p, r)->text = p->s + at;
            node_at(p, r)->len = (uint32_t)vlen;
            node_at(p, r)->flag = (uint8_t)neg;
        }
        return r;
    }
    cc_dm_ref enc = parse_encoding(p);
    return enc && consume(p, 'E') ? enc : 0;
}

static cc_dm_ref parse_expression(parser *p) {
    char c = peek(p, 0), d = peek(p, 1);
    cc_dm_ref r = 0;
    if (++p->depth > DM_MAX_DEPTH) return 0;
    if (c == 'L') {
        r = parse_expr_primary(p);
    } else if (c == 'T') {
        r = parse_template_param(p);
    } else if (c == 'f' && d == 'p') { /* fp <cv> _ or fp <cv> <n> _: a function parameter */
        uint64_t n = 0;
        int numbered;
        p->pos += 2;
        parse_cv(p);
        numbered = is_digit(peek(p, 0));
        if ((!numbered || (parse_number(p, &n) == 0 && n < UINT64_MAX - 2)) && consume(p, '_')) {
            r = new_node(p, CC_DM_FUNCTION_PARAM);
            if (r) node_at(p, r)->num = numbered ? n + 2 : 1;
        }
    } else if ((c == 's' || c == 'a') && (d == 't' || d == 'z')) { /* sizeof, alignof */
        int of_type = d == 't';
        p->pos += 2;
        r = pair_node(p, of_type ? CC_DM_SIZEOF : CC_DM_UNARY,
                      of_type ? parse_type(p) : parse_expression(p), 0);
        if (r) {
            node_at(p, r)->text = c == 's' ? "sizeof " : "alignof ";
            node_at(p, r)->len = (uint32_t)strlen(node_at(p, r)->text);
        }
    } else {
        const op_info *op = find_op(c, d);
        if (op && op->arity) {
            p->pos += 2;
            cc_dm_ref a = parse_expression(p);
            cc_dm_ref b = a && op->arity == 2 ? parse_expression(p) : 0;
            if (a && (op->arity == 1 || b))
                r = pair_node(p, op->arity == 1 ? CC_DM_UNARY : CC_DM_BINARY, a, b);
            if (r) {
                node_at(p, r)->text = op->name;
                node_at(p, r)->len = (uint32_t)strlen(op->name);
            }
        }
    }
    p->depth--;
    return r;
}

/* ---- encodings ---- */

static int at_encoding_end(const parser *p) {
    char c = peek(p, 0);
    return c == '\0' || c == 'E' || c == '.';
}

static cc_dm_ref parse_encoding(parser *p) {
    char c = peek(p, 0);
    if (c == 'T' || (c == 'G' && peek(p, 1) == 'V')) return 0; /* special names: no kernels */
    if (++p->depth > DM_MAX_DEPTH) return 0;
    name_state st = {0, 0, 0, 0};
    cc_dm_ref name = parse_name(p, &st), r = name, ret = 0;
    if (name && !at_encoding_end(p)) {
        uint32_t list, nlist;
        if (st.ends_with_template_args && !st.ctor_dtor_conversion) ret = parse_type(p);
        r = 0;
        if ((ret || !st.ends_with_template_args || st.ctor_dtor_conversion) &&
            parse_params(p, 1, &list, &nlist) == 0) {
            r = pair_node(p, CC_DM_ENCODING, name, ret);
            if (r) {
                cc_dm_node *n = node_at(p, r);
                n->list = list;
                n->nlist = nlist;
                n->cv = st.cv;
                n->ref = st.ref;
            }
        }
    }
    p->depth--;
    return r;
}

/* .part.0, .constprop.0.isra.1: one [clone ...] each group of a word and its numbers. */
static cc_dm_ref parse_clone_suffix(parser *p, cc_dm_ref r) {
    size_t at = p->pos;
    char c = peek(p, 1);
    if (!(is_lower(c) || is_digit(c) || c == '_')) return 0;
    p->pos += 2;
    while (is_lower(peek(p, 0)) || is_digit(peek(p, 0)) || peek(p, 0) == '_') p->pos++;
    while (peek(p, 0) == '.' && is_digit(peek(p, 1))) {
        p->pos += 2;
        while (is_digit(peek(p, 0))) p->pos++;
    }
    r = pair_node(p, CC_DM_CLONE, r, 0);
    if (r) {
        node_at(p, r)->text = p->s + at;
        node_at(p, r)->len = (uint32_t)(p->pos - at);
    }
    return r;
}

int cc_dm_parse(const char *mangled, size_t len, cc_dm_tree *t, cc_dm_ref *root) {
    parser p;
    memset(&p, 0, sizeof p);
    p.s = mangled;
    p.len = len;
    p.t = t;
    p.max_nodes = len <= SIZE_MAX / DM_NODES_PER_CHAR - 64 ? len * DM_NODES_PER_CHAR + 64 : SIZE_MAX;
    if (p.max_nodes > UINT32_MAX - 1) p.max_nodes = UINT32_MAX - 1;
    *root = 0;
    cc_dm_ref r = 0;
    if (len > 2 && mangled[0] == '_' && mangled[1] == 'Z') {
        p.pos = 2;
        r = parse_encoding(&p);
        while (r && peek(&p, 0) == '.') r = parse_clone_suffix(&p, r);
    }
    free(p.subs);
    free(p.stack);
    if (!r || p.pos != len) return -1;
    *root = r;
    return 0;
}

void cc_dm_tree_free(cc_dm_tree *t) {
    free(t->nodes);
    free(t->kids);
    memset(t, 0, sizeof *t);
}
