"""Checks the agent's GIL-free walk of Python frames (src/agent/host_python*.c) through
libcc_py_probe.so: nested calls through ctypes.CDLL (the GIL is released during the call, as in
PyTorch's launches) and ctypes.PyDLL (GIL held), from a second threading.Thread, inside a
generator, from a thread that never ran Python, and under load from other Python threads.
Expected lines are found by the `# L:` tags in this file. Usage: py_frames_test.py LIB [--layout]."""
import ctypes
import os
import sys
import threading

LIB = sys.argv[1]
THIS = sys._getframe().f_code.co_filename  # as CPython recorded it (co_filename)
FAILS = []


def tag_line(tag):
    with open(THIS) as f:
        for number, text in enumerate(f, 1):
            if text.rstrip().endswith("# L:" + tag):
                return number
    raise SystemExit("tag not found: " + tag)


def qual(q):
    # 3.10 code objects have no co_qualname: the walk falls back to co_name.
    return q if sys.version_info >= (3, 11) else q.rsplit(".", 1)[-1]


def load(kind):
    lib = kind(LIB)
    lib.cc_py_probe.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.cc_py_probe.restype = ctypes.c_int
    lib.cc_py_probe_layout.argtypes = [ctypes.c_char_p, ctypes.c_size_t]
    lib.cc_py_probe_status.restype = ctypes.c_char_p
    lib.cc_py_probe_capture_ns.argtypes = [ctypes.c_int]
    lib.cc_py_probe_capture_ns.restype = ctypes.c_double
    lib.cc_py_probe_describe_ns.argtypes = [ctypes.c_int]
    lib.cc_py_probe_describe_ns.restype = ctypes.c_double
    return lib


CDLL = load(ctypes.CDLL)   # releases the GIL around every call
PYDLL = load(ctypes.PyDLL)  # keeps it


def probe(lib):
    buf = ctypes.create_string_buffer(16384)
    n = lib.cc_py_probe(buf, len(buf))  # L:probe
    frames = buf.value.decode().splitlines()
    if n != len(frames):
        FAILS.append("probe said %d frames but wrote %d" % (n, len(frames)))
    return frames


def expect(what, frames, wanted):
    """wanted: (line, qualname) pairs that must open the frame list, innermost first."""
    for i, (line, name) in enumerate(wanted):
        want = "%s:%d in %s" % (THIS, line, qual(name))
        got = frames[i] if i < len(frames) else "<none>"
        if got != want:
            FAILS.append("%s: frame %d is %r, expected %r (all: %r)" % (what, i, got, want, frames))
            return
    print("ok   %s: %d frames, innermost %s" % (what, len(frames), frames[0] if frames else "-"))


class Trainer:
    def step(self, lib):
        return probe(lib)  # L:step

    def run(self, lib):
        return self.step(lib)  # L:run


def outer(lib):
    return Trainer().run(lib)  # L:outer


def nested_expect(what, frames):
    expect(what, frames, [(tag_line("probe"), "probe"), (tag_line("step"), "Trainer.step"),
                          (tag_line("run"), "Trainer.run"), (tag_line("outer"), "outer")])


def main_thread_cases():
    for lib, name in ((CDLL, "CDLL (GIL released)"), (PYDLL, "PyDLL (GIL held)")):
        frames = outer(lib)  # L:main
        nested_expect("main thread, " + name, frames)
        last = "%s:%d in <module>" % (THIS, tag_line("module"))
        if not frames or frames[-1] != last:
            FAILS.append("%s: outermost frame %r, expected %r" % (name, frames[-1:], last))


def gen_body(lib):
    yield probe(lib)  # L:gen


def generator_case():
    frames = next(gen_body(CDLL))  # L:gennext
    expect("generator", frames, [(tag_line("probe"), "probe"), (tag_line("gen"), "gen_body"),
                                 (tag_line("gennext"), "generator_case")])


def thread_case():
    result = {}

    def worker():
        result["frames"] = outer(CDLL)  # L:worker

    t = threading.Thread(target=worker)
    t.start()
    t.join()
    frames = result.get("frames", [])
    nested_expect("second threading.Thread", frames)
    expect("second threading.Thread, caller", frames[4:], [(tag_line("worker"), "thread_case.<locals>.worker")])
    tail = [f for f in frames[5:] if "threading.py" in f]
    if not tail or not frames[-1].endswith(" in " + qual("Thread._bootstrap")):
        FAILS.append("second thread: expected threading.py frames ending in _bootstrap: %r" % frames)


def stress_case():
    """Threads probing (GIL released) while other threads run Python code at full speed."""
    stop = threading.Event()
    bad = []

    def churn():
        while not stop.is_set():
            [str(i) * 3 for i in range(200)]
            sum(x for x in range(100))

    def prober():
        for _ in range(100):
            frames = outer(CDLL)  # L:prober
            if len(frames) < 5 or not frames[4].endswith(":%d in %s" % (tag_line("prober"),
                                                                          qual("stress_case.<locals>.prober"))):
                bad.append(frames)
                return

    churners = [threading.Thread(target=churn) for _ in range(3)]
    probers = [threading.Thread(target=prober) for _ in range(4)]
    for t in churners + probers:
        t.start()
    for t in probers:
        t.join()
    stop.set()
    for t in churners:
        t.join()
    if bad:
        FAILS.append("stress: unexpected frames %r" % bad[0])
    else:
        print("ok   stress: 4 probing threads x 100 walks next to 3 busy Python threads")


def foreign_case():
    n = CDLL.cc_py_probe_foreign_thread()
    if n != 0:
        FAILS.append("a thread that never ran Python reported %d frames" % n)
    else:
        print("ok   thread without Python: no frames")


def deep_case(depth):
    if depth == 0:
        return probe(CDLL)  # L:deep0
    return deep_case(depth - 1)  # L:deep


def deep_check():
    frames = deep_case(100)
    if (len(frames) != 64 or not frames[1].endswith(":%d in deep_case" % tag_line("deep0"))
            or not all(f.endswith(":%d in deep_case" % tag_line("deep")) for f in frames[2:])):
        FAILS.append("deep recursion: %d frames (expected the walk bound 64), first %r"
                     % (len(frames), frames[:3]))
    else:
        print("ok   deep recursion: bounded at %d frames" % len(frames))


def interpreter_case():
    # The native stack of a call from Python reaches the interpreter after the probe's own frame
    # and ctypes' frames: host_stacks.c puts the Python frames in place of those below it.
    i = CDLL.cc_py_probe_first_interpreter_frame()
    if i < 1:
        FAILS.append("native frames: first CPython frame at %d, expected after the probe's" % i)
    else:
        print("ok   native stack: CPython's frames begin at frame %d" % i)


def main():
    if "--layout" in sys.argv:
        buf = ctypes.create_string_buffer(4096)
        rc = CDLL.cc_py_probe_layout(buf, len(buf))
        sys.stdout.write(buf.value.decode())
        return 0 if rc == 0 else 1
    status = CDLL.cc_py_probe_status().decode()
    print("     %s; %s" % (status, sys.version.split()[0]))
    if "layout is not known" in status:
        # An interpreter the agent has no table for: it must read nothing.
        frames = outer(CDLL)
        print("%s  unknown version: %d frames read" % ("ok  " if not frames else "FAIL", len(frames)))
        return 77 if not frames else 1
    main_thread_cases()
    generator_case()
    thread_case()
    foreign_case()
    deep_check()
    interpreter_case()
    stress_case()
    print("     cost: %.0f ns per capture (%d frames deep), %.0f ns per cached frame text"
          % (CDLL.cc_py_probe_capture_ns(20000), len(outer(CDLL)), CDLL.cc_py_probe_describe_ns(20000)))
    for f in FAILS:
        print("FAIL " + f)
    return 1 if FAILS else 0


if __name__ == "__main__":
    sys.exit(main())  # L:module
