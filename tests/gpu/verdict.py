"""What every GPU runner checks about one `cucheck --format json --output REPORT TOOL -- PROGRAM`
run, besides matching its findings (findings.match_set):
  - cucheck ended by itself (no timeout), was not killed by a signal, and exited with the status
    the program has natively (or the one the row expects, e.g. 1 after --on-error stop); an
    exit of 2, 126 or 127 means cucheck did not run the program at all;
  - its summary line on stderr names at least one process report, and it did not say that no
    process wrote one (the agent was not loaded or could not attach);
  - the report exists and every line is a JSON object with a "type";
  - the tool's closing note is there and says what it checked: the mode asked for (memcheck,
    streamcheck), and work done (`need`: "launches" = at least one kernel launch seen,
    "checked" = at least one launch instrumented by memcheck, synccheck or initcheck).
Reports are found through --output, never by guessing the agent's per-process file names.

As a command (for the shell runners):
  verdict.py --report FILE --log FILE --exit RC [--want-exit N] --tool TOOL [--mode MODE]
             [--need launches|checked] (--expect SPEC [--expect SPEC]... | --none)
  SPEC: 'kind=race|stream-race;kernel=consume;other=produce;at=file.cu:53' (findings.Expect).
Prints one line, PASS or FAIL with the reasons; exit 0 pass, 1 fail, 2 bad arguments.
Standard library only.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import findings  # noqa: E402

# cucheck's own failures: usage error / agent missing, program not runnable, program not found.
CUCHECK_COULD_NOT_RUN = (2, 126, 127)
SUMMARY_RE = re.compile(r"^cucheck: [a-z-]+: .* in ([\d,]+) process reports?\b", re.M)
NO_REPORT = "no process wrote a report"
CANNOT_ATTACH = "cucheck: cannot attach"
_N = r"([\d,]+)"
NOTES = {
    "memcheck": re.compile(r"^memcheck \((full|adaptive) mode\): kernels checked %s/%s, "
                           r"launches instrumented %s/%s" % (_N, _N, _N, _N)),
    "synccheck": re.compile(r"^synccheck \((full|adaptive) mode\): kernels checked %s/%s, "
                            r"launches instrumented %s/%s" % (_N, _N, _N, _N)),
    "initcheck": re.compile(r"^initcheck \((full|adaptive) mode\): kernels checked %s/%s, "
                            r"launches instrumented %s/%s" % (_N, _N, _N, _N)),
    "streamcheck": re.compile(r"^streamcheck \(mode (\w+)\): ordered %s kernel launch" % _N),
    "run": re.compile(r"^run: tracked %s context\(s\), %s module\(s\), %s kernel launch"
                      % (_N, _N, _N)),
    "profile": re.compile(r"^profile: %s kernel instance\(s\) of %s kernel\(s\)" % (_N, _N)),
}
DEFAULT_MODE = {"memcheck": "adaptive", "synccheck": "adaptive", "initcheck": "adaptive", "streamcheck": "default"}


def _num(text):
    return int(text.replace(",", ""))


def _last_line(text):
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    return lines[-1][:200] if lines else "no message"


def check_exit(code, stderr, want_exit, timed_out=False):
    """Notes of what is wrong with how cucheck ended ([] = as expected)."""
    if timed_out:
        return ["cucheck did not end within its time limit (a hang?): %s" % _last_line(stderr)]
    if code < 0:
        return ["cucheck was killed by signal %d: %s" % (-code, _last_line(stderr))]
    if code == want_exit:
        return []
    if code in CUCHECK_COULD_NOT_RUN:
        return ["cucheck did not run the program (exit %d): %s" % (code, _last_line(stderr))]
    if code in (124, 137):
        return ["cucheck exit %d (killed at the runner's time limit?), expected %d"
                % (code, want_exit)]
    if code > 128:
        return ["cucheck exit %d (killed by signal %d?), expected %d" % (code, code - 128,
                                                                         want_exit)]
    return ["cucheck exit %d, expected %d (the program's own status)" % (code, want_exit)]


def check_collected(stderr, processes=1):
    """Notes of what is wrong with the summary line: at least `processes` process reports."""
    notes = []
    if CANNOT_ATTACH in (stderr or ""):
        notes.append("the agent could not attach: %s" % next(
            l for l in stderr.splitlines() if CANNOT_ATTACH in l)[:200])
    if NO_REPORT in (stderr or ""):
        notes.append("cucheck says no process wrote a report (agent not loaded?)")
    counts = [_num(c) for c in SUMMARY_RE.findall(stderr or "")]
    if not counts:
        notes.append("no summary line from cucheck on stderr: %s" % _last_line(stderr))
    elif counts[-1] < processes:
        notes.append("%d process report(s) collected, expected at least %d" % (counts[-1],
                                                                               processes))
    return notes


def read_report(path, cut_tail_ok=False):
    """(records, None) or (records so far, one-line error): a JSON Lines report in which every
    line is a JSON object with a string "type"; with cut_tail_ok a last line that is not JSON (a
    process that died while writing it) is skipped."""
    try:
        with open(path, "rb") as fh:
            data = fh.read().decode("utf-8", "replace")
    except FileNotFoundError:
        return [], "no report file %s" % path
    except OSError as err:
        return [], "cannot read the report %s: %s" % (path, err.strerror)
    records = []
    lines = data.split("\n")
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except ValueError as err:
            if cut_tail_ok and number == len(lines):
                break
            return records, "%s:%d: not JSON (%s)" % (path, number, err)
        if not isinstance(rec, dict) or not isinstance(rec.get("type"), str):
            return records, "%s:%d: not a report record (no \"type\")" % (path, number)
        records.append(rec)
    return records, None


def report_findings(records):
    return [r for r in records if r.get("type") == "finding" and findings._is_finding(r)]


def check_note(records, tool, mode=None, need=None):
    """None if the tool's closing note says what it checked (mode, work), else why not."""
    pattern = NOTES.get(tool)
    texts = [r.get("text", "") for r in records
             if r.get("type") == "note" and isinstance(r.get("text"), str)]
    if pattern is None:
        return None if texts else "no note from %s" % tool
    hits = [m for m in (pattern.match(t) for t in texts) if m]
    if not hits:
        return "no closing note of %s saying what it checked (notes: %s)" % (
            tool, "; ".join(t[:80] for t in texts) or "none")
    want_mode = mode or DEFAULT_MODE.get(tool)
    for m in hits:
        if tool in ("memcheck", "synccheck", "initcheck"):
            got_mode, checked, launches = m.group(1), _num(m.group(2)), _num(m.group(4))
            work = {"launches": launches, "checked": checked}.get(need, 1)
        elif tool == "streamcheck":
            got_mode, work = m.group(1), _num(m.group(2))
        elif tool == "run":
            got_mode, work = None, _num(m.group(3))
        else:
            got_mode, work = None, _num(m.group(1))
        if want_mode and got_mode is not None and got_mode != want_mode:
            continue
        if need and work < 1:
            continue
        return None
    return "the note of %s does not say it checked %s%s: %s" % (
        tool, "mode " + want_mode if want_mode else "its work",
        " with %s > 0" % need if need else "", hits[0].group(0))


def judge(code, stderr, report, tool, expects, want_exit, mode=None, need=None,
          timed_out=False, processes=1):
    """(ok, notes) for one run: how it ended, what it collected, the report, the note and the
    findings (expects: findings.Expect list; [] = a clean run)."""
    notes = check_exit(code, stderr, want_exit, timed_out)
    if timed_out or code < 0:
        return False, notes
    notes += check_collected(stderr, processes)
    records, error = read_report(report)
    if error:
        return False, notes + [error]
    why = check_note(records, tool, mode, need)
    if why:
        notes.append(why)
    ok, found = findings.match_set(report_findings(records), expects)
    return ok and not notes, notes + found


def main(argv=None):
    ap = argparse.ArgumentParser(description="one verdict on one cucheck run")
    ap.add_argument("--report", required=True, help="the --output file of --format json")
    ap.add_argument("--log", required=True, help="cucheck's stderr (with the summary line)")
    ap.add_argument("--exit", type=int, required=True, help="cucheck's exit status")
    ap.add_argument("--want-exit", type=int, default=0, help="the program's own status")
    ap.add_argument("--tool", required=True)
    ap.add_argument("--mode")
    ap.add_argument("--need", choices=("launches", "checked"))
    ap.add_argument("--expect", action="append", default=[], metavar="SPEC")
    ap.add_argument("--none", action="store_true", help="a clean run: no error or warning")
    args = ap.parse_args(argv)
    if bool(args.expect) == args.none:
        print("verdict.py: give --none or at least one --expect", file=sys.stderr)
        return 2
    try:
        expects = [findings.Expect.from_spec(s) for s in args.expect]
    except findings.SpecError as err:
        print("verdict.py: bad --expect: %s" % err, file=sys.stderr)
        return 2
    try:
        with open(args.log, encoding="utf-8", errors="replace") as fh:
            log = fh.read()
    except OSError as err:
        log = ""
        print("verdict.py: cannot read the log %s: %s" % (args.log, err.strerror),
              file=sys.stderr)
    ok, notes = judge(args.exit, log, args.report, args.tool, expects, args.want_exit,
                      args.mode, args.need)
    print("%s: %s" % ("PASS" if ok else "FAIL", "; ".join(notes)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
