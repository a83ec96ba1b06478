"""Unit tests of python/cucheck/pytest_plugin.py's logic (no GPU, no cucheck run): the command
and environment of the run under cucheck, report names, the report reader (whole lines only,
this run's sections only, damaged lines skipped), the text of a finding, severities, and that
the CUDA synchronization never loads the driver. tests/cli/pytest_plugin.sh runs them."""
import json
import os
import sys

import pytest

from cucheck import pytest_plugin as plugin

RUN = "3f9c0e52a1d47b86"
FINDING = {"type": "finding", "id": 1, "tool": "memcheck", "kind": "invalid-global-write",
           "severity": "error", "message": "Address 0x7f0000000410 is 16 bytes after the end",
           "count": 3, "test": "tests/test_model.py::test_fwd",
           "device": {"kernel": "add(float const*, float*, int)", "launch_id": 3,
                      "stream": "0x0", "pc": "0x1f0", "file": "vecadd.cu", "line": 12,
                      "block": [3, 0, 0], "thread": [256, 0, 0], "address": "0x7f0000000410",
                      "size": 4, "access": "write", "space": "global"},
           "frames": [{"pc": "0x401000", "text": "tests/test_model.py:9 in test_fwd"}],
           "related": [{"role": "allocation", "message": "1024 bytes at 0x7f0000000000",
                        "frames": [{"pc": "0x0", "text": "tests/test_model.py:7 in test_fwd"}]}]}


def header(run):
    return json.dumps({"type": "header", "format": "cucheck-report", "format_version": 1,
                       "tool": "memcheck", "run": run, "pid": 1}) + "\n"


def test_reexec_command_puts_the_tool_and_pytest_around_dashdash():
    cmd = plugin.reexec_command("/opt/cucheck", "memcheck --mode 'full'", ["-x", "t.py"],
                                python="/usr/bin/python3")
    assert cmd == ["/opt/cucheck", "memcheck", "--mode", "full", "--", "/usr/bin/python3", "-m",
                   "pytest", "-x", "t.py"]


@pytest.mark.parametrize("spec, why", [("", "needs a tool"), ("   ", "needs a tool"),
                                       ("memcheck -- x", "'--'"),
                                       ("memcheck 'unclosed", "quotation")])
def test_bad_tool_specs_are_usage_errors(spec, why):
    with pytest.raises(pytest.UsageError, match=why):
        plugin.tool_words(spec)


def test_reexec_environment_keeps_the_users_event_thread_choice():
    env = plugin.reexec_environment({"PATH": "/bin"})
    assert env[plugin.ENV_CURRENT_TEST] == "" and env["CUCHECK_EVENT_THREAD"] == "off"
    env = plugin.reexec_environment({"CUCHECK_EVENT_THREAD": "on",
                                     plugin.ENV_CURRENT_TEST: "stale::test"})
    assert env["CUCHECK_EVENT_THREAD"] == "on" and env[plugin.ENV_CURRENT_TEST] == ""


def test_under_cucheck_needs_report_and_run():
    assert plugin.under_cucheck({"CUCHECK_REPORT": "/r/%p", "CUCHECK_RUN_ID": RUN})
    assert not plugin.under_cucheck({"CUCHECK_REPORT": "/r/%p"})
    assert not plugin.under_cucheck({"CUCHECK_RUN_ID": RUN, "CUCHECK_REPORT": ""})
    assert not plugin.under_cucheck({})


def test_report_names_expand_as_the_agent_does():
    env = {"RANK": "3"}
    assert plugin.expand_report_name("/r/c.%p.jsonl", 42, env) == "/r/c.42.jsonl"
    assert plugin.expand_report_name("/r/c.%q{RANK}.%q{NONE}.%%.%x", 7, env) == "/r/c.3..%.%x"
    assert plugin.expand_report_name("/r/c.%q{RANK", 7, env) is None
    assert plugin.expand_report_name("/r/c%", 7, env) == "/r/c%"
    # %r: "rank<R>." from the launcher's variables, nothing without a rank (core/rank_env.c)
    assert plugin.expand_report_name("/r/c.%r%p.jsonl", 42, env) == "/r/c.rank3.42.jsonl"
    assert plugin.expand_report_name("/r/c.%r%p.jsonl", 42, {}) == "/r/c.42.jsonl"
    assert plugin.expand_report_name("%r", 1, {"RANK": "x", "SLURM_PROCID": "5"}) == "rank5."


def test_reader_takes_whole_lines_of_this_run_only(tmp_path):
    path = tmp_path / "r.jsonl"
    other = dict(FINDING, message="another run's")
    path.write_text(header("0000000000000000") + json.dumps(other) + "\n" + header(RUN))
    reader = plugin.ReportReader(str(path), RUN)
    assert reader.new_findings() == []
    line = json.dumps(FINDING) + "\n"
    with open(path, "a") as f:  # the agent is still writing the line
        f.write(line[:40])
    assert reader.new_findings() == []
    with open(path, "a") as f:
        f.write(line[40:] + '{"type":"note","tool":"memcheck","text":"checked"}\n'
                "not json at all\n[1,2]\n" + '{"type":"finding","tool":"memcheck"}\n')
    got = reader.new_findings()
    assert [g["test"] for g in got] == ["tests/test_model.py::test_fwd"]
    assert reader.new_findings() == []  # nothing is read twice
    with open(path, "a") as f:
        f.write(header("ffffffffffffffff") + line)  # a later run's section
    assert reader.new_findings() == []


def test_reader_of_a_missing_file_finds_nothing(tmp_path):
    assert plugin.ReportReader(str(tmp_path / "none.jsonl"), RUN).new_findings() == []


def test_finding_text_reads_like_cuchecks():
    text = plugin.format_finding(FINDING)
    assert text.splitlines()[:6] == [
        "Invalid __global__ write of size 4 bytes [invalid-global-write]",
        "    at add(float const*, float*, int)+0x1f0 in vecadd.cu:12",
        "    by thread (256,0,0) in block (3,0,0)",
        "    Address 0x7f0000000410 is 16 bytes after the end",
        "    In test: tests/test_model.py::test_fwd",
        "    Host frame: tests/test_model.py:9 in test_fwd"]
    assert "    Allocation: 1024 bytes at 0x7f0000000000" in text
    assert text.endswith("(seen 3 times)")
    warning = plugin.format_finding({"type": "finding", "tool": "run", "kind": "api-error",
                                     "severity": "warning",
                                     "message": "cudaMemcpy returned cudaErrorInvalidValue"})
    assert warning == "Warning: cudaMemcpy returned cudaErrorInvalidValue [api-error]"


def test_severity_threshold():
    assert plugin.severity_at_least({"severity": "error"}, "error")
    assert not plugin.severity_at_least({"severity": "warning"}, "error")
    assert plugin.severity_at_least({"severity": "warning"}, "warning")
    assert plugin.severity_at_least({"severity": "info"}, "info")
    assert plugin.severity_at_least({"severity": "bogus"}, "warning")  # read as a warning


def test_synchronize_never_loads_the_driver():
    before = open("/proc/self/maps").read().count("libcuda.so")
    if before:
        pytest.skip("this process has loaded libcuda")
    assert plugin.synchronize_cuda() is False
    assert open("/proc/self/maps").read().count("libcuda.so") == 0


def test_cucheck_bin_must_be_an_executable(tmp_path):
    with pytest.raises(pytest.UsageError, match="not an executable"):
        plugin.find_cucheck(str(tmp_path / "missing"))
    exe = tmp_path / "cucheck"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    assert plugin.find_cucheck(str(exe)) == str(exe)
    assert os.path.isabs(plugin.find_cucheck(sys.executable))
