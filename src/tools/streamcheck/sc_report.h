/* streamcheck's reporting side: naming operations (sc_describe.c), the fix that would order two
 * operations (sc_fix.c), and turning an engine issue into a finding (sc_report.c). Kernels are
 * named demangled, through the tool's demangle cache (names; NULL: as the events name them). */
#ifndef CUCHECK_TOOLS_STREAMCHECK_SC_REPORT_H
#define CUCHECK_TOOLS_STREAMCHECK_SC_REPORT_H

#include <stddef.h>
#include <stdint.h>
#include "cucheck/tool.h"
#include "core/hb_engine.h"
#include "symbols/demangle.h"

/* device >= 0: the stream's device is named too (programs that used several devices). */
void sc_stream_name(char *buf, size_t len, uint64_t stream, uint32_t tid, int32_t device);
const char *sc_access_verb(uint32_t flags);
uint32_t sc_access_kind(uint32_t flags); /* cc_access */
void sc_op_short(char *buf, size_t len, const cc_hb_op *op, cc_demangle_cache *names);
void sc_op_where(char *buf, size_t len, const cc_hb_op *op, int show_device);
void sc_op_describe(char *buf, size_t len, const cc_hb_op *op, cc_demangle_cache *names,
                    int show_device);
void sc_alloc_describe(char *buf, size_t len, const cc_hb_alloc_info *a);

/* The change that would order the two sides of the issue (event record/wait, a synchronize, a
 * graph edge, record_stream for PyTorch), as one line. */
void sc_fix(char *buf, size_t len, const cc_hb_issue *is, cc_demangle_cache *names);

/* Report the issue through host as a finding of tool "streamcheck": a kernel side's device
 * location names the kernel demangled, its mangled name in kernel_mangled. */
void sc_report_issue(cc_tool_host *host, const cc_hb_issue *is, cc_demangle_cache *names);

#endif
