"""What the agent does when memcheck finds an overrun, for a machine without a GPU: append the
finding (a memcheck scenario replayed to JSON Lines, named by $FAKE_FINDING) to this process's
report file, naming the test that is running as the agent's reporter does
(CUCHECK_CURRENT_TEST; unit test test_report_test_field checks the reporter itself)."""
import json
import os


def plant(severity=None):
    pattern = os.environ.get("CUCHECK_REPORT")
    if not pattern:  # not under cucheck: nothing checks the program
        return False
    with open(os.environ["FAKE_FINDING"]) as f:
        rec = json.loads(f.readline())
    if severity:
        rec["severity"] = severity
    test = os.environ.get("CUCHECK_CURRENT_TEST")
    if test:
        rec["test"] = test
    path = pattern.replace("%p", str(os.getpid()))
    new = not os.path.exists(path)
    with open(path, "a") as f:
        if new:
            f.write(json.dumps({"type": "header", "format": "cucheck-report", "format_version": 1,
                                "tool": os.environ.get("CUCHECK_TOOL", "memcheck"),
                                "run": os.environ["CUCHECK_RUN_ID"], "pid": os.getpid()}) + "\n")
        f.write(json.dumps(rec) + "\n")
    return True


def record_environment():
    """The test variable and the event-thread knob as the running test sees them."""
    with open(os.path.join(os.environ["FAKE_DIR"], "env.txt"), "a") as f:
        f.write("%s|%s\n" % (os.environ.get("CUCHECK_CURRENT_TEST"),
                             os.environ.get("CUCHECK_EVENT_THREAD")))
