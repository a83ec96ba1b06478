/* Test-time probe: prints, from the CPython headers of the interpreter under test, the field
 * offsets that src/agent/host/host_python_layout.c tabulates, as `name=value` lines, so that
 * tests/cli/agent_pyframes.sh can compare them with the agent's table for that version. Built by
 * the test script with `python3-config --includes` and Py_BUILD_CORE (internal headers). */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <stddef.h>
#include <stdio.h>
#if PY_VERSION_HEX >= 0x030B0000
#include <internal/pycore_frame.h>
#else
#include <frameobject.h>
#endif

#define CC_SHOW(name, value) printf("%s=%ld\n", name, (long)(value))

int main(void)
{
    CC_SHOW("version", PY_MAJOR_VERSION * 100 + PY_MINOR_VERSION);
    CC_SHOW("code.filename", offsetof(PyCodeObject, co_filename));
    CC_SHOW("code.name", offsetof(PyCodeObject, co_name));
    CC_SHOW("code.firstlineno", offsetof(PyCodeObject, co_firstlineno));
    CC_SHOW("code.linetable", offsetof(PyCodeObject, co_linetable));
#if PY_VERSION_HEX >= 0x030B0000
    CC_SHOW("code.qualname", offsetof(PyCodeObject, co_qualname));
    CC_SHOW("code.firsttraceable", offsetof(PyCodeObject, _co_firsttraceable));
    CC_SHOW("code.code_adaptive", offsetof(PyCodeObject, co_code_adaptive));
    CC_SHOW("frame.previous", offsetof(_PyInterpreterFrame, previous));
    CC_SHOW("frame.owner", offsetof(_PyInterpreterFrame, owner));
#if PY_VERSION_HEX >= 0x030D0000
    CC_SHOW("frame.code", offsetof(_PyInterpreterFrame, f_executable));
    CC_SHOW("frame.instr", offsetof(_PyInterpreterFrame, instr_ptr));
    CC_SHOW("tstate.frame", offsetof(PyThreadState, current_frame));
#else
    CC_SHOW("frame.code", offsetof(_PyInterpreterFrame, f_code));
    CC_SHOW("frame.instr", offsetof(_PyInterpreterFrame, prev_instr));
    CC_SHOW("tstate.cframe", offsetof(PyThreadState, cframe));
    CC_SHOW("cframe.current_frame", offsetof(_PyCFrame, current_frame));
#endif
#else
    CC_SHOW("code.code", offsetof(PyCodeObject, co_code));
    CC_SHOW("frame.back", offsetof(PyFrameObject, f_back));
    CC_SHOW("frame.code", offsetof(PyFrameObject, f_code));
    CC_SHOW("frame.lasti", offsetof(PyFrameObject, f_lasti));
    CC_SHOW("tstate.frame", offsetof(PyThreadState, frame));
#endif
    CC_SHOW("tstate.interp", offsetof(PyThreadState, interp));
    CC_SHOW("object.type", offsetof(PyObject, ob_type));
    CC_SHOW("varobject.size", offsetof(PyVarObject, ob_size));
    CC_SHOW("ascii.length", offsetof(PyASCIIObject, length));
    CC_SHOW("ascii.state", offsetof(PyASCIIObject, state));
    CC_SHOW("ascii.data", sizeof(PyASCIIObject));
    return 0;
}
