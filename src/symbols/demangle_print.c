/* The printer of cucheck's Itanium demangler (demangle_itanium.h): writes a parsed name in the
 * style of the C++ runtime's demangler. Types print in two halves around what they qualify, as
 * C++ declarators do ("void (*)(int)", "int (&) [4]", "void (A::*)(int) const"); a template
 * argument list closing after another gets a space ("std::array<char*, 2ul> >"); expressions
 * parenthesize their operands ("(1)+(2)"); a pack expansion prints its pattern once per element
 * of the pack ("int*, float*"). The text is bounded (substitutions can make a short name print
 * exponentially long) and so is the work and the depth: past the bounds the printer gives up. */
#include "symbols/demangle_itanium.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/grow.h"

#define DM_MAX_TEXT ((size_t)1 << 20)   /* bytes of demangled text */
#define DM_MAX_STEPS ((uint64_t)1 << 24) /* nodes visited */
#define DM_MAX_PRINT_DEPTH 1024

/* The templates being printed, innermost first: T_ names an argument of the innermost. */
typedef struct template_frame {
    cc_dm_ref tmpl;
    const struct template_frame *next;
} template_frame;

typedef struct printer {
    const cc_dm_tree *t;
    char *out;
    size_t n, cap;
    int failed;
    int depth;
    uint64_t steps;
    int64_t pack_index; /* the element a pack prints inside an expansion; -1 outside one */
    const template_frame *templates;
    int lambda_params;  /* inside a lambda's parameters: T_ is a generic lambda's auto:N */
    int too_large;      /* failed on a bound (text, work, depth), not on the name's meaning */
    char last_char;     /* the last character written, kept when a separator is taken back (as
                         * the runtime does: "allocator<T>>" before an empty pack) */
} printer;

static void print_left(printer *p, cc_dm_ref r);
static void print_right(printer *p, cc_dm_ref r);

static const cc_dm_node *at(const printer *p, cc_dm_ref r) { return &p->t->nodes[r - 1]; }
static cc_dm_ref kid(const printer *p, uint32_t list, uint32_t i) { return p->t->kids[list + i]; }

static void put(printer *p, const char *s, size_t n) {
    if (p->failed || n == 0) return;
    if (n > DM_MAX_TEXT - p->n || CC_ARRAY_RESERVE(p->out, p->cap, p->n + n + 1) != 0) {
        p->failed = p->too_large = 1;
        return;
    }
    memcpy(p->out + p->n, s, n);
    p->n += n;
    p->last_char = s[n - 1];
}

static void puts_(printer *p, const char *s) { put(p, s, strlen(s)); }
static char last(const printer *p) { return p->last_char; }

static void put_num(printer *p, uint64_t v) {
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%" PRIu64, v);
    put(p, buf, (size_t)n);
}

/* The argument template parameter n names in the template frames ts (inside a pack expansion,
 * the element of a pack being printed), 0 when there is none; *rest: the frames the argument
 * itself is printed in (it may name a parameter of an outer template). */
static cc_dm_ref lookup_param(const printer *p, const cc_dm_node *n, const template_frame *ts,
                              const template_frame **rest) {
    if (!ts) return 0;
    const cc_dm_node *t = at(p, ts->tmpl);
    if (n->num >= t->nlist) return 0;
    cc_dm_ref a = kid(p, t->list, (uint32_t)n->num);
    const cc_dm_node *an = at(p, a);
    if (an->kind == CC_DM_PACK && p->pack_index >= 0)
        a = (uint64_t)p->pack_index < an->nlist ? kid(p, an->list, (uint32_t)p->pack_index) : 0;
    *rest = ts->next;
    return a;
}

/* What r stands for: a template parameter is its argument. */
static cc_dm_ref resolve(const printer *p, cc_dm_ref r) {
    const template_frame *ts = p->templates;
    for (int guard = 0; r && guard < DM_MAX_PRINT_DEPTH; guard++) {
        const cc_dm_node *n = at(p, r);
        if (n->kind != CC_DM_TEMPLATE_PARAM || p->lambda_params) return r;
        r = lookup_param(p, n, ts, &ts);
    }
    return 0;
}

static int is_kind(const printer *p, cc_dm_ref r, cc_dm_kind k) {
    r = resolve(p, r);
    return r && at(p, r)->kind == k;
}

/* Declarator shapes: an array or a function (through qualifiers), and whether anything prints
 * after the name (the right half). */
/* r through its qualifiers (bounded: a substitution can make the chain a cycle), 0 if none. */
static cc_dm_ref unqualified(const printer *p, cc_dm_ref r) {
    r = resolve(p, r);
    for (int guard = 0; r && at(p, r)->kind == CC_DM_QUAL; guard++) {
        if (guard >= DM_MAX_PRINT_DEPTH) return 0;
        r = resolve(p, at(p, r)->a);
    }
    return r;
}

static int has_array(const printer *p, cc_dm_ref r) {
    r = unqualified(p, r);
    return r && at(p, r)->kind == CC_DM_ARRAY;
}

static int has_function(const printer *p, cc_dm_ref r) {
    r = unqualified(p, r);
    return r && at(p, r)->kind == CC_DM_FUNCTION;
}

static int has_rhs(const printer *p, cc_dm_ref r) {
    for (int guard = 0; guard < DM_MAX_PRINT_DEPTH; guard++) {
        r = resolve(p, r);
        if (!r) return 0;
        const cc_dm_node *n = at(p, r);
        switch (n->kind) {
        case CC_DM_ARRAY:
        case CC_DM_FUNCTION: return 1;
        case CC_DM_POINTER:
        case CC_DM_LVREF:
        case CC_DM_RVREF:
        case CC_DM_QUAL:
        case CC_DM_VENDOR_QUAL: r = n->a; break;
        case CC_DM_PTR_MEMBER: r = n->b; break;
        default: return 0;
        }
    }
    return 0;
}

/* A reference to a reference collapses (& unless both are &&): the reference's target past the
 * references it names, *kind becoming & where one is. Bounded: a substitution can make the chain
 * a cycle (the fuzzer found a 23-byte name that hung here); past the bound the printer fails. */
static cc_dm_ref collapse_refs(printer *p, cc_dm_ref target, int *kind) {
    for (int guard = 0; *kind != CC_DM_POINTER &&
                        (is_kind(p, target, CC_DM_LVREF) || is_kind(p, target, CC_DM_RVREF));
         guard++) {
        if (guard >= DM_MAX_PRINT_DEPTH || ++p->steps > DM_MAX_STEPS) {
            p->failed = p->too_large = 1;
            return 0;
        }
        cc_dm_ref inner = resolve(p, target);
        if (at(p, inner)->kind == CC_DM_LVREF) *kind = CC_DM_LVREF;
        target = at(p, inner)->a;
    }
    return target;
}

static void print(printer *p, cc_dm_ref r) {
    print_left(p, r);
    print_right(p, r);
}

/* Items separated by ", "; an item after the first that prints nothing (an empty pack) takes
 * its separator back. */
static void print_list(printer *p, uint32_t list, uint32_t n) {
    for (uint32_t i = 0; i < n && !p->failed; i++) {
        size_t before = p->n;
        if (i) puts_(p, ", ");
        size_t body = p->n;
        print(p, kid(p, list, i));
        if (i && p->n == body) p->n = before;
    }
}

static void print_quals(printer *p, uint8_t cv) {
    if (cv & CC_DM_CONST) puts_(p, " const");
    if (cv & CC_DM_VOLATILE) puts_(p, " volatile");
    if (cv & CC_DM_RESTRICT) puts_(p, " restrict");
}

static void print_ref_qual(printer *p, uint8_t ref) {
    if (ref == 1) puts_(p, " &");
    else if (ref == 2) puts_(p, " &&");
}

/* An operand: names and function parameters as they are, anything else in parentheses. */
static void print_subexpr(printer *p, cc_dm_ref r) {
    const cc_dm_node *n = at(p, r);
    int simple = n->kind == CC_DM_TEXT || n->kind == CC_DM_NESTED || n->kind == CC_DM_FUNCTION_PARAM;
    if (!simple) puts_(p, "(");
    print(p, r);
    if (!simple) puts_(p, ")");
}

static void print_literal(printer *p, const cc_dm_node *n) {
    cc_dm_ref type = resolve(p, n->a);
    uint8_t kind = CC_DM_PRINT_DEFAULT;
    if (type && (at(p, type)->kind == CC_DM_TEXT || at(p, type)->kind == CC_DM_FLOATN) &&
        at(p, type)->flag != CC_DM_PRINT_NONE && at(p, type)->flag != CC_DM_NOT_A_BASE)
        kind = at(p, type)->flag;
    static const char *const k_suffix[] = {"", "u", "l", "ul", "ll", "ull"};
    if (kind >= CC_DM_PRINT_INT && kind <= CC_DM_PRINT_ULONGLONG) {
        if (n->flag) puts_(p, "-");
        put(p, n->text, n->len);
        puts_(p, k_suffix[kind - CC_DM_PRINT_INT]);
        return;
    }
    if (kind == CC_DM_PRINT_BOOL && !n->flag && n->len == 1 && (n->text[0] == '0' || n->text[0] == '1')) {
        puts_(p, n->text[0] == '1' ? "true" : "false");
        return;
    }
    puts_(p, "(");
    print(p, n->a);
    puts_(p, ")");
    if (n->flag) puts_(p, "-");
    if (kind == CC_DM_PRINT_FLOAT) puts_(p, "[");
    put(p, n->text, n->len);
    if (kind == CC_DM_PRINT_FLOAT) puts_(p, "]");
}

/* The size of the first pack a template parameter under r names (not inside a nested expansion
 * or a lambda), or -1 when there is none. */
static int64_t pack_size(printer *p, cc_dm_ref r, int depth) {
    if (!r || depth > DM_MAX_PRINT_DEPTH || ++p->steps > DM_MAX_STEPS) {
        if (r) p->failed = p->too_large = 1;
        return -1;
    }
    const cc_dm_node *n = at(p, r);
    if (n->kind == CC_DM_TEMPLATE_PARAM) {
        const cc_dm_node *t = p->templates && !p->lambda_params ? at(p, p->templates->tmpl) : NULL;
        cc_dm_ref a = t && n->num < t->nlist ? kid(p, t->list, (uint32_t)n->num) : 0;
        return a && at(p, a)->kind == CC_DM_PACK ? (int64_t)at(p, a)->nlist : -1;
    }
    if (n->kind == CC_DM_PACK_EXPANSION || n->kind == CC_DM_CLOSURE) return -1;
    int64_t s = pack_size(p, n->a, depth + 1);
    if (s < 0) s = pack_size(p, n->b, depth + 1);
    for (uint32_t i = 0; s < 0 && i < n->nlist; i++) s = pack_size(p, kid(p, n->list, i), depth + 1);
    return s;
}

static void print_pack_expansion(printer *p, cc_dm_ref child) {
    int64_t size = pack_size(p, child, 0);
    if (size < 0) { /* only function parameter packs: the pattern as it is */
        print_subexpr(p, child);
        puts_(p, "...");
        return;
    }
    int64_t saved = p->pack_index;
    for (int64_t i = 0; i < size && !p->failed; i++) {
        if (i) puts_(p, ", ");
        p->pack_index = i;
        print(p, child);
    }
    p->pack_index = saved;
}

/* A template parameter: its argument, printed in the frames outside the template that names
 * it; in a lambda's parameters, the generic lambda's auto:N. */
static void print_param(printer *p, const cc_dm_node *n, int left) {
    const template_frame *hold = p->templates, *rest = NULL;
    if (p->lambda_params) {
        if (left) {
            puts_(p, "auto:");
            put_num(p, n->num + 1);
        }
        return;
    }
    cc_dm_ref a = lookup_param(p, n, hold, &rest);
    if (!a) {
        p->failed = 1;
        return;
    }
    p->templates = rest;
    if (left) print_left(p, a);
    else print_right(p, a);
    p->templates = hold;
}

static void print_left(printer *p, cc_dm_ref r) {
    if (!r || p->failed) return;
    if (++p->depth > DM_MAX_PRINT_DEPTH || ++p->steps > DM_MAX_STEPS) {
        p->failed = p->too_large = 1;
        return;
    }
    const cc_dm_node *n = at(p, r);
    switch ((cc_dm_kind)n->kind) {
    case CC_DM_TEXT: put(p, n->text, n->len); break;
    case CC_DM_FLOATN:
        puts_(p, "_Float");
        put_num(p, n->num);
        break;
    case CC_DM_NESTED:
    case CC_DM_LOCAL:
        print(p, n->a);
        puts_(p, "::");
        print(p, n->b);
        break;
    case CC_DM_TEMPLATE:
        print(p, n->a);
        if (last(p) == '<') puts_(p, " ");
        puts_(p, "<");
        print_list(p, n->list, n->nlist);
        if (last(p) == '>') puts_(p, " ");
        puts_(p, ">");
        break;
    case CC_DM_ABI_TAG:
        print(p, n->a);
        puts_(p, "[abi:");
        put(p, n->text, n->len);
        puts_(p, "]");
        break;
    case CC_DM_CTOR: print(p, n->a); break;
    case CC_DM_DTOR:
        puts_(p, "~");
        print(p, n->a);
        break;
    case CC_DM_OPERATOR: {
        uint32_t len = n->len;
        puts_(p, "operator");
        if (len && n->text[0] >= 'a' && n->text[0] <= 'z') puts_(p, " ");
        if (len && n->text[len - 1] == ' ') len--;
        put(p, n->text, len);
        break;
    }
    case CC_DM_CONVERSION:
        puts_(p, "operator ");
        print(p, n->a);
        break;
    case CC_DM_ENCODING: {
        /* a function template's arguments are what T_ names in its name and its type */
        template_frame frame;
        cc_dm_ref named = n->a;
        if (at(p, named)->kind == CC_DM_LOCAL) named = at(p, named)->b;
        int is_template = at(p, named)->kind == CC_DM_TEMPLATE;
        if (is_template) {
            frame.tmpl = named;
            frame.next = p->templates;
            p->templates = &frame;
        }
        if (n->b) {
            print_left(p, n->b);
            if (!has_rhs(p, n->b)) puts_(p, " ");
        }
        print(p, n->a);
        puts_(p, "(");
        print_list(p, n->list, n->nlist);
        puts_(p, ")");
        if (n->b) print_right(p, n->b);
        print_quals(p, n->cv);
        print_ref_qual(p, n->ref);
        if (is_template) p->templates = frame.next;
        break;
    }
    case CC_DM_QUAL:
        print_left(p, n->a);
        print_quals(p, n->cv);
        break;
    case CC_DM_VENDOR_QUAL:
        print_left(p, n->a);
        puts_(p, " ");
        put(p, n->text, n->len);
        break;
    case CC_DM_POINTER:
    case CC_DM_LVREF:
    case CC_DM_RVREF: {
        cc_dm_ref target = n->a;
        int kind = n->kind;
        target = collapse_refs(p, target, &kind);
        if (p->failed) return;
        print_left(p, target);
        if (has_array(p, target)) puts_(p, " ");
        if (has_array(p, target) || has_function(p, target)) puts_(p, "(");
        puts_(p, kind == CC_DM_POINTER ? "*" : kind == CC_DM_LVREF ? "&" : "&&");
        break;
    }
    case CC_DM_FUNCTION:
        print_left(p, n->b);
        if (!has_rhs(p, n->b)) puts_(p, " ");
        break;
    case CC_DM_ARRAY: print_left(p, n->a); break;
    case CC_DM_PTR_MEMBER:
        print_left(p, n->b);
        puts_(p, has_array(p, n->b) || has_function(p, n->b) ? "(" : " ");
        print(p, n->a);
        puts_(p, "::*");
        break;
    case CC_DM_CLOSURE:
        puts_(p, "{lambda(");
        p->lambda_params++;
        print_list(p, n->list, n->nlist);
        p->lambda_params--;
        puts_(p, ")#");
        put_num(p, n->num);
        puts_(p, "}");
        break;
    case CC_DM_UNNAMED:
        puts_(p, "{unnamed type#");
        put_num(p, n->num);
        puts_(p, "}");
        break;
    case CC_DM_LITERAL: print_literal(p, n); break;
    case CC_DM_PACK: print_list(p, n->list, n->nlist); break;
    case CC_DM_PACK_EXPANSION: print_pack_expansion(p, n->a); break;
    case CC_DM_TEMPLATE_PARAM: print_param(p, n, 1); break;
    case CC_DM_VECTOR:
        print(p, n->a);
        puts_(p, " __vector(");
        put(p, n->text, n->len);
        puts_(p, ")");
        break;
    case CC_DM_FUNCTION_PARAM:
        puts_(p, "{parm#");
        put_num(p, n->num);
        puts_(p, "}");
        break;
    case CC_DM_UNARY:
        put(p, n->text, n->len);
        print_subexpr(p, n->a);
        break;
    case CC_DM_BINARY: {
        int gt = n->len == 1 && n->text[0] == '>';
        if (gt) puts_(p, "(");
        print_subexpr(p, n->a);
        put(p, n->text, n->len);
        print_subexpr(p, n->b);
        if (gt) puts_(p, ")");
        break;
    }
    case CC_DM_SIZEOF:
        put(p, n->text, n->len);
        puts_(p, "(");
        print(p, n->a);
        puts_(p, ")");
        break;
    case CC_DM_DECLTYPE:
        puts_(p, "decltype (");
        print(p, n->a);
        puts_(p, ")");
        break;
    case CC_DM_CLONE:
        print(p, n->a);
        puts_(p, " [clone ");
        put(p, n->text, n->len);
        puts_(p, "]");
        break;
    }
    p->depth--;
}

static void print_right(printer *p, cc_dm_ref r) {
    if (!r || p->failed) return;
    if (++p->depth > DM_MAX_PRINT_DEPTH || ++p->steps > DM_MAX_STEPS) {
        p->failed = p->too_large = 1;
        return;
    }
    const cc_dm_node *n = at(p, r);
    switch ((cc_dm_kind)n->kind) {
    case CC_DM_QUAL:
    case CC_DM_VENDOR_QUAL: print_right(p, n->a); break;
    case CC_DM_TEMPLATE_PARAM: print_param(p, n, 0); break;
    case CC_DM_POINTER:
    case CC_DM_LVREF:
    case CC_DM_RVREF: {
        int kind = n->kind;
        cc_dm_ref target = collapse_refs(p, n->a, &kind);
        if (p->failed) return;
        if (has_array(p, target) || has_function(p, target)) puts_(p, ")");
        print_right(p, target);
        break;
    }
    case CC_DM_FUNCTION:
        puts_(p, "(");
        print_list(p, n->list, n->nlist);
        puts_(p, ")");
        print_right(p, n->b);
        print_quals(p, n->cv);
        print_ref_qual(p, n->ref);
        break;
    case CC_DM_ARRAY:
        if (last(p) != ']') puts_(p, " ");
        puts_(p, "[");
        print(p, n->b);
        puts_(p, "]");
        print_right(p, n->a);
        break;
    case CC_DM_PTR_MEMBER:
        if (has_array(p, n->b) || has_function(p, n->b)) puts_(p, ")");
        print_right(p, n->b);
        break;
    default: break;
    }
    p->depth--;
}

char *cc_dm_print(const cc_dm_tree *t, cc_dm_ref root, int *too_large) {
    printer p;
    memset(&p, 0, sizeof p);
    p.t = t;
    p.pack_index = -1;
    print(&p, root);
    if (p.failed || CC_ARRAY_RESERVE(p.out, p.cap, p.n + 1) != 0) {
        if (too_large) *too_large = p.too_large || !p.failed;
        free(p.out);
        return NULL;
    }
    p.out[p.n] = '\0';
    return p.out;
}

char *cc_itanium_demangle(const char *mangled, size_t len, int *too_large) {
    cc_dm_tree t;
    cc_dm_ref root;
    char *text = NULL;
    memset(&t, 0, sizeof t);
    if (too_large) *too_large = 0;
    if (mangled && cc_dm_parse(mangled, len, &t, &root) == 0) text = cc_dm_print(&t, root, too_large);
    cc_dm_tree_free(&t);
    return text;
}
