/* What the text writer shows of a finding, chosen on the command line with compute-sanitizer's
 * names: host stacks or not (--show-backtrace), how many host frames per stack
 * (--num-callers-host), and how kernel names are written (--demangle). The default style is the
 * text report as it always was. */
#ifndef CUCHECK_CORE_REPORT_TEXT_STYLE_H
#define CUCHECK_CORE_REPORT_TEXT_STYLE_H

#include <stdint.h>
#include <stdio.h>
#include "cucheck/finding.h"

typedef enum cc_text_demangle {
    CC_DEMANGLE_FULL = 0,   /* the demangled name with its parameter list (default) */
    CC_DEMANGLE_SIMPLE = 1, /* the demangled name without its parameter list */
    CC_DEMANGLE_NO = 2,     /* the name the binary gives (mangled) */
} cc_text_demangle;

#define CC_TEXT_DEFAULT_HOST_FRAMES 24u

typedef struct cc_text_style {
    int hide_host_frames;     /* no "Host frame:" lines, in the finding and its related places */
    uint32_t max_host_frames; /* per stack; the rest are counted. 0: no limit */
    int demangle;             /* cc_text_demangle */
} cc_text_style;

/* The style of the text report as it always was: host frames, at most 24 per stack, full names. */
void cc_text_style_default(cc_text_style *s);

/* `name` without its parameter list: "ns::f<int>(float*, int) const" gives "ns::f<int>". A name
 * that does not end in a parameter list is copied whole (cut to fit out). */
void cc_kernel_name_simple(const char *name, char *out, size_t outlen);

/* cc_write_finding_text (core/report.h) in the given style; style NULL = the default. */
void cc_write_finding_text_styled(FILE *out, const cc_finding *f, const cc_text_style *style);
/* The same, with `from` (which ranks or processes saw it: "ranks 0,1") in parentheses at the end
 * of the title line; NULL or "": nothing. */
void cc_write_finding_text_from(FILE *out, const cc_finding *f, const cc_text_style *style,
                                const char *from);

#endif
