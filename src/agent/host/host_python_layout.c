/* The per-version table of CPython's internal offsets (see host_python_layout.h). Every value is
 * a byte offset on LP64 (pointers 8 bytes, int 4), computed by hand from the field order of each
 * version's structures; nothing of CPython's source is copied. The 3.11 row is also checked by
 * tests/cli/agent_pyframes.sh against offsetof() from the local headers. */
#include "agent/host/host_python_layout.h"

#include <stdio.h>
#include <string.h>

static const cc_py_layout cc_py_layouts[] = {
    {
        /* 3.10: struct _ts {prev, next, interp, frame, ...}; struct _frame {PyObject_VAR_HEAD,
         * f_back, f_code, f_builtins, f_globals, f_locals, f_valuestack, f_trace,
         * int f_stackdepth, char f_trace_lines, char f_trace_opcodes, f_gen, int f_lasti, ...};
         * PyCodeObject {PyObject_HEAD, 7 ints (co_firstlineno the 7th), co_code, co_consts,
         * co_names, co_varnames, co_freevars, co_cellvars, co_cell2arg, co_filename, co_name,
         * co_linetable, ...}; PyASCIIObject {PyObject_HEAD, length, hash, state, wstr}. */
        .version = 310, .kind = CC_PY_FRAME_OBJECTS,
        .ts_interp = 16, .ts_frame = 24, .cframe_current = -1,
        .fr_code = 32, .fr_previous = 24, .fr_instr = -1, .fr_lasti = 96, .fr_owner = -1,
        .owner_generator = -1, .owner_cstack = -1,
        .co_filename = 104, .co_name = 112, .co_qualname = -1, .co_firstlineno = 40,
        .co_linetable = 120, .co_firsttraceable = -1, .co_code_adaptive = -1, .co_code = 48,
        .ob_type = 8, .ob_size = 16, .str_length = 16, .str_state = 32, .str_data = 48,
        .str_has_ready = 1,
    },
    {
        /* 3.11: struct _ts {prev, next, interp, 7 ints, _PyCFrame *cframe, ...};
         * _PyCFrame {uint8_t use_tracing, current_frame, previous};
         * _PyInterpreterFrame {f_func, f_globals, f_builtins, f_locals, f_code, frame_obj,
         * previous, prev_instr, int stacktop, bool is_entry, char owner, localsplus[]};
         * PyCodeObject {PyObject_VAR_HEAD, co_consts, co_names, co_exceptiontable, int co_flags,
         * short co_warmup, short _co_linearray_entry_size, 10 ints (co_firstlineno the 5th),
         * co_localsplusnames, co_localspluskinds, co_filename, co_name, co_qualname,
         * co_linetable, co_weakreflist, _co_code, _co_linearray, int _co_firsttraceable,
         * co_extra, co_code_adaptive[]}. Owners: thread 0, generator 1, frame object 2. */
        .version = 311, .kind = CC_PY_CFRAME,
        .ts_interp = 16, .ts_frame = 56, .cframe_current = 8,
        .fr_code = 32, .fr_previous = 48, .fr_instr = 56, .fr_lasti = -1, .fr_owner = 69,
        .owner_generator = 1, .owner_cstack = -1,
        .co_filename = 112, .co_name = 120, .co_qualname = 128, .co_firstlineno = 72,
        .co_linetable = 136, .co_firsttraceable = 168, .co_code_adaptive = 184, .co_code = -1,
        .ob_type = 8, .ob_size = 16, .str_length = 16, .str_state = 32, .str_data = 48,
        .str_has_ready = 1,
    },
    {
        /* 3.12: struct _ts {prev, next, interp, 4-byte _status bits, 6 ints, cframe, ...};
         * _PyCFrame {current_frame, previous}; _PyInterpreterFrame {f_code, previous,
         * f_funcobj, f_globals, f_builtins, f_locals, frame_obj, prev_instr, int stacktop,
         * uint16_t return_offset, char owner, localsplus[]}; PyCodeObject {PyObject_VAR_HEAD,
         * co_consts, co_names, co_exceptiontable, 11 ints (co_firstlineno the 6th),
         * uint32_t co_version, co_localsplusnames, co_localspluskinds, co_filename, co_name,
         * co_qualname, co_linetable, co_weakreflist, _co_cached, uint64_t
         * _co_instrumentation_version, _co_monitoring, int _co_firsttraceable, co_extra,
         * co_code_adaptive[]}; PyASCIIObject lost wstr (data at 40). Owner C stack: 3. */
        .version = 312, .kind = CC_PY_CFRAME,
        .ts_interp = 16, .ts_frame = 56, .cframe_current = 0,
        .fr_code = 0, .fr_previous = 8, .fr_instr = 56, .fr_lasti = -1, .fr_owner = 70,
        .owner_generator = 1, .owner_cstack = 3,
        .co_filename = 112, .co_name = 120, .co_qualname = 128, .co_firstlineno = 68,
        .co_linetable = 136, .co_firsttraceable = 176, .co_code_adaptive = 192, .co_code = -1,
        .ob_type = 8, .ob_size = 16, .str_length = 16, .str_state = 32, .str_data = 40,
        .str_has_ready = 0,
    },
    {
        /* 3.13: struct _ts {prev, next, interp, uintptr_t eval_breaker, 4-byte _status bits,
         * 8 ints (_whence ... what_event), current_frame, ...}; _PyInterpreterFrame
         * {f_executable, previous, f_funcobj, f_globals, f_builtins, f_locals, frame_obj,
         * instr_ptr, int stacktop, uint16_t return_offset, char owner, localsplus[]};
         * PyCodeObject as 3.12 with co_executors inserted after co_weakreflist. */
        .version = 313, .kind = CC_PY_CURRENT_FRAME,
        .ts_interp = 16, .ts_frame = 72, .cframe_current = -1,
        .fr_code = 0, .fr_previous = 8, .fr_instr = 56, .fr_lasti = -1, .fr_owner = 70,
        .owner_generator = 1, .owner_cstack = 3,
        .co_filename = 112, .co_name = 120, .co_qualname = 128, .co_firstlineno = 68,
        .co_linetable = 136, .co_firsttraceable = 184, .co_code_adaptive = 200, .co_code = -1,
        .ob_type = 8, .ob_size = 16, .str_length = 16, .str_state = 32, .str_data = 40,
        .str_has_ready = 0,
    },
};

const cc_py_layout *cc_py_layout_for(int version)
{
    for (size_t i = 0; i < sizeof cc_py_layouts / sizeof cc_py_layouts[0]; i++) {
        if (cc_py_layouts[i].version == version) {
            return &cc_py_layouts[i];
        }
    }
    return NULL;
}

/* Appends "name=value\n" when value is a real offset (>= 0). */
static void cc_put(char *out, size_t len, size_t *at, const char *name, int value)
{
    if (value < 0 || *at >= len) {
        return;
    }
    char line[128];
    int w = snprintf(line, sizeof line, "%s=%d\n", name, value);
    if (w <= 0) {
        return;
    }
    size_t n = (size_t)w < sizeof line ? (size_t)w : sizeof line - 1;
    if (n > len - *at - 1) {
        n = len - *at - 1; /* truncated, still terminated */
    }
    memcpy(out + *at, line, n);
    *at += n;
    out[*at] = '\0';
}

void cc_py_layout_print(const cc_py_layout *l, char *out, size_t len)
{
    size_t at = 0;
    if (len == 0) {
        return;
    }
    out[0] = '\0';
    cc_put(out, len, &at, "version", l->version);
    cc_put(out, len, &at, "code.filename", l->co_filename);
    cc_put(out, len, &at, "code.name", l->co_name);
    cc_put(out, len, &at, "code.firstlineno", l->co_firstlineno);
    cc_put(out, len, &at, "code.linetable", l->co_linetable);
    cc_put(out, len, &at, "code.qualname", l->co_qualname);
    cc_put(out, len, &at, "code.firsttraceable", l->co_firsttraceable);
    cc_put(out, len, &at, "code.code_adaptive", l->co_code_adaptive);
    cc_put(out, len, &at, "code.code", l->co_code);
    cc_put(out, len, &at, l->kind == CC_PY_FRAME_OBJECTS ? "frame.back" : "frame.previous",
           l->fr_previous);
    cc_put(out, len, &at, "frame.owner", l->fr_owner);
    cc_put(out, len, &at, "frame.code", l->fr_code);
    cc_put(out, len, &at, "frame.instr", l->fr_instr);
    cc_put(out, len, &at, "frame.lasti", l->fr_lasti);
    cc_put(out, len, &at, l->kind == CC_PY_CFRAME ? "tstate.cframe" : "tstate.frame",
           l->ts_frame);
    cc_put(out, len, &at, "cframe.current_frame", l->cframe_current);
    cc_put(out, len, &at, "tstate.interp", l->ts_interp);
    cc_put(out, len, &at, "object.type", l->ob_type);
    cc_put(out, len, &at, "varobject.size", l->ob_size);
    cc_put(out, len, &at, "ascii.length", l->str_length);
    cc_put(out, len, &at, "ascii.state", l->str_state);
    cc_put(out, len, &at, "ascii.data", l->str_data);
}
