"""pytest plugin: check a test session with a cucheck tool and name the test in every finding.

    pytest --cucheck memcheck
    pytest --cucheck "memcheck --mode full" tests/test_model.py
    pytest --cucheck streamcheck -x

Outside cucheck, `--cucheck TOOL...` runs the same pytest command line again under
`cucheck TOOL... -- python -m pytest ARGS` (the process becomes cucheck: its exit status is the
run's). Inside a cucheck run (the CLI's CUCHECK_REPORT and CUCHECK_RUN_ID are set, with or
without --cucheck) the plugin:

* sets CUCHECK_CURRENT_TEST to the running test's node id during its setup, call and teardown
  ("" between tests); the agent's reporter reads it when a finding is made, and the finding
  carries it as "test" (text `In test:`, JSON Lines and SARIF "test");
* synchronizes the thread's current CUDA context after each phase (when libcuda is loaded), so
  that memcheck reads back the phase's launches while their test is still the running one;
* reads the process's report file for the findings made in the phase, shows them in the test's
  report and fails the phase when one is of the --cucheck-fail-on severity or above (call:
  the test fails; setup or teardown: an error of the test);
* lists the findings made outside any test (collection, between tests) in the terminal summary.

Findings made at process exit (leaks) are in cucheck's own report, printed after pytest's.
docs/pytest.md is the guide.
"""

import json
import os
import shlex
import shutil
import sys

import pytest

ENV_CURRENT_TEST = "CUCHECK_CURRENT_TEST"  # core/agent_env.h CC_ENV_CURRENT_TEST
ENV_REPORT = "CUCHECK_REPORT"              # the per-process report pattern the CLI sets
ENV_RUN_ID = "CUCHECK_RUN_ID"              # the run's id, in every section header
ENV_EVENT_THREAD = "CUCHECK_EVENT_THREAD"  # agent knob: analysis on the agent's event thread

SEVERITIES = ("info", "warning", "error")
MAX_FRAMES_SHOWN = 12


# ---- outside cucheck: the command that runs the session under it ----

def under_cucheck(environ=None):
    """True in a process that a cucheck run started (its report pattern and run id are set)."""
    env = os.environ if environ is None else environ
    return bool(env.get(ENV_REPORT)) and bool(env.get(ENV_RUN_ID))


def find_cucheck(explicit=None):
    """The cucheck executable: --cucheck-bin, the installed package's (or $CUCHECK_EXE), PATH."""
    if explicit:
        path = explicit if os.sep in explicit else shutil.which(explicit)
        if not path or not os.access(path, os.X_OK):
            raise pytest.UsageError("--cucheck-bin %s: not an executable file" % explicit)
        return os.path.abspath(path)
    try:
        from cucheck import _locate
        return _locate.executable()
    except Exception:  # a source checkout, or the package without its native part
        pass
    path = shutil.which("cucheck")
    if path:
        return path
    raise pytest.UsageError(
        "--cucheck: cannot find the cucheck executable: install the cucheck package, put "
        "cucheck on PATH, or name it with --cucheck-bin PATH (or CUCHECK_EXE)")


def tool_words(spec):
    """The tool and its options from --cucheck's value ("memcheck --mode full")."""
    try:
        words = shlex.split(spec)
    except ValueError as e:
        raise pytest.UsageError("--cucheck %r: %s" % (spec, e))
    if not words:
        raise pytest.UsageError("--cucheck needs a tool: --cucheck memcheck")
    if "--" in words:
        raise pytest.UsageError("--cucheck %r: the tool's options cannot hold '--' (the plugin "
                                "puts the pytest command after it)" % spec)
    return words


def reexec_command(cucheck, spec, pytest_args, python=None):
    """argv of `cucheck TOOL [opts] -- python -m pytest ARGS`."""
    return ([cucheck] + tool_words(spec) + ["--", python or sys.executable, "-m", "pytest"] +
            list(pytest_args))


def reexec_environment(environ=None):
    """The environment of the run: the test variable exists from the start (so that setting it
    later only replaces a value: the agent may read the environment from another thread, and a
    growing environment would move under it), and the agent analyses on the program's threads
    unless the user chose otherwise (an event thread could make a finding after its test)."""
    env = dict(os.environ if environ is None else environ)
    env[ENV_CURRENT_TEST] = ""
    env.setdefault(ENV_EVENT_THREAD, "off")
    return env


# ---- inside cucheck: the report file and its findings ----

RANK_VARS = ("RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID", "PMI_RANK", "PMIX_RANK")


def rank_from_env(environ=None):
    """core/rank_env.c's rank: the first launcher variable that holds a whole number, or -1."""
    env = os.environ if environ is None else environ
    for var in RANK_VARS:
        v = env.get(var, "")
        if v.isascii() and v.isdigit() and int(v) < 0x7FFFFFFF:
            return int(v)
    return -1


def expand_report_name(pattern, pid, environ=None):
    """core/report_name.c's expansion: %p the pid, %q{VAR} a variable (empty if unset),
    %r "rank<R>." when the launcher names the process's rank (else nothing), %%."""
    env = os.environ if environ is None else environ
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if c == "%" and i + 1 < len(pattern):
            n = pattern[i + 1]
            if n == "p":
                out.append(str(pid))
                i += 2
                continue
            if n == "r":
                rank = rank_from_env(env)
                out.append("rank%d." % rank if rank >= 0 else "")
                i += 2
                continue
            if n == "%":
                out.append("%")
                i += 2
                continue
            if n == "q" and pattern.startswith("{", i + 2):
                end = pattern.find("}", i + 3)
                if end < 0:
                    return None
                out.append(env.get(pattern[i + 3:end], ""))
                i = end + 1
                continue
        out.append(c)
        i += 1
    return "".join(out)


class ReportReader:
    """Reads a process's JSON Lines report as it grows: only whole lines, only the sections of
    this run, only finding records; anything else (other types, damaged lines) is skipped."""

    def __init__(self, path, run_id):
        self.path = path
        self.run_id = run_id
        self.offset = 0
        self.partial = b""
        self.in_run = False

    def new_findings(self):
        try:
            with open(self.path, "rb") as f:
                f.seek(self.offset)
                data = f.read()
        except OSError:
            return []
        self.offset += len(data)
        data = self.partial + data
        lines = data.split(b"\n")
        self.partial = lines.pop()  # "" after a final newline, else a line still being written
        found = []
        for line in lines:
            try:
                rec = json.loads(line.decode("utf-8", "replace"))
            except ValueError:
                continue
            if not isinstance(rec, dict):
                continue
            if rec.get("type") == "header":
                self.in_run = rec.get("run") == self.run_id
            elif rec.get("type") == "finding" and self.in_run and \
                    isinstance(rec.get("kind"), str):
                found.append(rec)
        return found


def severity_at_least(finding, lowest):
    sev = finding.get("severity")
    rank = SEVERITIES.index(sev) if sev in SEVERITIES else SEVERITIES.index("warning")
    return rank >= SEVERITIES.index(lowest)


def _dim3(v):
    return "(%s)" % ",".join(str(x) for x in v) if isinstance(v, list) else "(?)"


def _where(dev):
    kernel = dev.get("kernel")
    pc = dev.get("pc")
    text = ""
    if "kernel" in dev:
        text = kernel if isinstance(kernel, str) else "<unknown kernel>"
    if pc is not None:
        text += ("+" if text else "pc ") + (pc if isinstance(pc, str) else hex(pc))
    if isinstance(dev.get("file"), str):
        text += "%s%s:%s" % (" in " if text else "", dev["file"], dev.get("line", "?"))
    return text


def format_finding(rec):
    """A finding record as cucheck's text report writes it (docs/reports.md), shortened."""
    sev = rec.get("severity")
    prefix = "Warning: " if sev == "warning" else "Note: " if sev == "info" else ""
    dev = rec.get("device") if isinstance(rec.get("device"), dict) else {}
    kind = rec.get("kind", "?")
    message = rec.get("message")
    if kind.startswith("invalid-") and "access" in dev and dev.get("access") != "none":
        space = {"global": "__global__ ", "shared": "__shared__ ", "local": "__local__ ",
                 "generic": "generic ", "host": "host "}.get(dev.get("space"), "")
        size = dev.get("size", 0)
        title = "Invalid %s%s of size %s byte%s" % (space, dev.get("access"), size,
                                                  "" if size == 1 else "s")
    else:
        title, message = (message or kind), None
    lines = ["%s%s [%s]" % (prefix, title, kind)]
    where = _where(dev)
    if where:
        lines.append("    at " + where)
    if "thread" in dev:
        lines.append("    by thread %s in block %s" % (_dim3(dev.get("thread")),
                                                      _dim3(dev.get("block"))))
    if message:
        lines.append("    " + message)
    if rec.get("test"):
        lines.append("    In test: %s" % rec["test"])
    frames = rec.get("frames") if isinstance(rec.get("frames"), list) else []
    for fr in frames[:MAX_FRAMES_SHOWN]:
        if isinstance(fr, dict):
            lines.append("    Host frame: %s" % fr.get("text", fr.get("pc", "?")))
    if len(frames) > MAX_FRAMES_SHOWN:
        lines.append("    ... %d more host frames" % (len(frames) - MAX_FRAMES_SHOWN))
    for rel in rec.get("related") or []:
        if not isinstance(rel, dict):
            continue
        role = str(rel.get("role") or "related")
        text = role[:1].upper() + role[1:] + ":"
        if rel.get("message"):
            text += " " + str(rel["message"])
        lines.append("    " + text)
        rdev = rel.get("device") if isinstance(rel.get("device"), dict) else {}
        if _where(rdev):
            lines.append("        at " + _where(rdev))
        for fr in (rel.get("frames") or [])[:4]:
            if isinstance(fr, dict):
                lines.append("        Host frame: %s" % fr.get("text", fr.get("pc", "?")))
    if (rec.get("count") or 1) > 1:
        lines.append("    (seen %s times)" % rec["count"])
    return "\n".join(lines)


def synchronize_cuda():
    """cuCtxSynchronize on the calling thread's current context, when the process has loaded
    the driver (never loads it): memcheck reads back a launch at the program's next
    synchronization, and this one keeps the phase's launches in their phase."""
    import ctypes
    try:
        cuda = ctypes.CDLL("libcuda.so.1", mode=os.RTLD_NOLOAD | os.RTLD_LAZY)
    except OSError:
        return False
    ctx = ctypes.c_void_p()
    try:
        if cuda.cuCtxGetCurrent(ctypes.byref(ctx)) != 0 or not ctx.value:
            return False
        cuda.cuCtxSynchronize()  # an error (a sticky fault) is the program's to report
    except AttributeError:
        return False
    return True


class Checker:
    """The plugin's half inside the checked process."""

    def __init__(self, config, environ=None, sync=synchronize_cuda):
        env = os.environ if environ is None else environ
        self.env = env
        self.fail_on = config.getoption("cucheck_fail_on")
        self.sync = sync
        path = expand_report_name(env.get(ENV_REPORT, ""), os.getpid(), env)
        self.reader = ReportReader(path, env.get(ENV_RUN_ID)) if path else None
        self.outside = []   # findings made outside the test they name, or outside any test
        self.pending = {}   # (nodeid, phase) -> findings of that phase
        env[ENV_CURRENT_TEST] = ""

    def _collect(self, item, when, sync=True):
        if sync and self.sync:
            self.sync()
        for rec in self.reader.new_findings() if self.reader else []:
            if item is not None and rec.get("test") == item.nodeid:
                self.pending.setdefault((item.nodeid, when), []).append(rec)
            else:
                self.outside.append(rec)

    def _phase(self, item, when):
        self.env[ENV_CURRENT_TEST] = item.nodeid
        try:
            yield
        finally:
            self._collect(item, when)
            if when == "teardown":
                self.env[ENV_CURRENT_TEST] = ""

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_setup(self, item):
        self._collect(None, None, sync=False)  # what came before this test is outside any
        yield from self._phase(item, "setup")

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_call(self, item):
        yield from self._phase(item, "call")

    @pytest.hookimpl(hookwrapper=True, tryfirst=True)
    def pytest_runtest_teardown(self, item):
        yield from self._phase(item, "teardown")

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        found = self.pending.pop((item.nodeid, call.when), None)
        if not found:
            return
        rep = outcome.get_result()
        text = "\n\n".join(format_finding(f) for f in found)
        failing = sum(1 for f in found if severity_at_least(f, self.fail_on))
        if failing and rep.passed:  # failed and expected failures (xfail) keep their outcome
            rep.outcome = "failed"
            rep.longrepr = "cucheck: %d finding%s in %s:\n\n%s" % (
                len(found), "" if len(found) == 1 else "s", call.when, text)
            if hasattr(rep, "wasxfail"):  # an unexpected pass with findings is a failure
                del rep.wasxfail
        else:
            rep.sections.append(("cucheck %s" % call.when, text))

    def pytest_terminal_summary(self, terminalreporter):
        self._collect(None, None)
        if not self.outside:
            return
        tr = terminalreporter
        tr.section("cucheck: findings outside their test")
        for rec in self.outside:
            tr.write_line(format_finding(rec))
            tr.write_line("")
        tr.write_line("(findings made at process exit, such as leaks, are in cucheck's report "
                      "after pytest's)")


# ---- hooks ----

def pytest_addoption(parser):
    group = parser.getgroup("cucheck", "checking CUDA code with cucheck")
    group.addoption("--cucheck", metavar="TOOL", default=None,
                    help='run the session under cucheck TOOL with its options (--cucheck '
                         '"memcheck --mode full"); each finding names its test, a test with '
                         'findings fails')
    group.addoption("--cucheck-fail-on", choices=SEVERITIES, default="error",
                    help="the lowest severity of a finding that fails its test (default: "
                         "error); findings below it are shown in the test's report")
    group.addoption("--cucheck-bin", metavar="PATH", default=None,
                    help="the cucheck executable (default: the installed package's, "
                         "$CUCHECK_EXE, or cucheck on PATH)")


def pytest_configure(config):
    if under_cucheck():
        config.pluginmanager.register(Checker(config), "cucheck-checker")


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    spec = config.getoption("cucheck")
    if spec is None or under_cucheck() or config.getoption("help", False) or \
            config.getoption("version", False):
        return None
    command = reexec_command(find_cucheck(config.getoption("cucheck_bin")), spec,
                             config.invocation_params.args)
    capman = config.pluginmanager.getplugin("capturemanager")
    if capman is not None:
        capman.suspend_global_capture(in_=True)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(command[0], command, reexec_environment())
