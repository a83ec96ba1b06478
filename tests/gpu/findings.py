"""Finds cucheck findings in a tool's output and matches them against an expectation.

The output may be one JSON document, JSON Lines, or JSON mixed with the program's own output;
every JSON value found is searched for finding objects (objects with a string "kind" and a
"message" or "severity"). Matching is by kind (alternatives joined by '|'), a substring of any
kernel name in the finding (related places too) and a file:line named anywhere in it.

As a command:  python3 findings.py OUTPUT_FILE KIND [KERNEL|-] [FILE:LINE|-]
prints one verdict line; exit 0 on a match, 1 on a mismatch, 2 on bad arguments.
KIND 'none' matches when no finding of severity error or warning is present. Standard library only.
"""
import json
import os
import sys

_DECODER = json.JSONDecoder()


def _json_values(text):
    """Every top-level JSON object or array that starts a line of text."""
    values, pos, end = [], 0, len(text)
    while pos < end:
        line_end = text.find("\n", pos)
        if line_end < 0:
            line_end = end
        stripped = text[pos:line_end].lstrip()
        start = pos + (line_end - pos - len(stripped))
        if stripped[:1] in ("{", "["):
            try:
                value, stop = _DECODER.raw_decode(text, start)
                values.append(value)
                next_nl = text.find("\n", stop)
                pos = end if next_nl < 0 else next_nl + 1
                continue
            except ValueError:
                pass
        pos = line_end + 1
    return values


def _is_finding(obj):
    return isinstance(obj, dict) and isinstance(obj.get("kind"), str) and (
        "message" in obj or "severity" in obj)


def _collect(value, out):
    if _is_finding(value):
        out.append(value)
        return
    if isinstance(value, dict):
        for item in value.values():
            _collect(item, out)
    elif isinstance(value, list):
        for item in value:
            _collect(item, out)


def extract(text):
    """All finding objects in a tool's output."""
    found = []
    for value in _json_values(text):
        _collect(value, found)
    return found


def _walk(value):
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item)


def severity_of(finding):
    sev = finding.get("severity", "error")
    if isinstance(sev, int):
        return {0: "info", 1: "warning", 2: "error"}.get(sev, "error")
    return str(sev).lower()


def _names_kernel(finding, kernel):
    for node in _walk(finding):
        if isinstance(node, dict):
            name = node.get("kernel")
            if isinstance(name, str) and kernel in name:
                return True
    message = finding.get("message")
    return isinstance(message, str) and kernel in message


def _names_location(finding, location):
    file_part, _, line_part = location.rpartition(":")
    base = os.path.basename(file_part)
    try:
        line_no = int(line_part)
    except ValueError:
        return False
    needle = "%s:%d" % (base, line_no)
    for node in _walk(finding):
        if isinstance(node, dict) and isinstance(node.get("file"), str):
            try:
                node_line = int(node.get("line", -1))
            except (TypeError, ValueError):
                node_line = -1
            if os.path.basename(node["file"]) == base and node_line == line_no:
                return True
        if isinstance(node, str):
            idx = node.find(needle)
            while idx >= 0:
                after = node[idx + len(needle):idx + len(needle) + 1]
                if not after.isdigit():
                    return True
                idx = node.find(needle, idx + 1)
    return False


def match(findings, kind, kernel=None, location=None):
    """(ok, one-line explanation) for an expectation over a list of findings."""
    serious = [f for f in findings if severity_of(f) in ("error", "warning")]
    if kind == "none":
        if not serious:
            return True, "clean: no errors or warnings (%d finding(s) in all)" % len(findings)
        kinds = sorted({f["kind"] for f in serious})
        return False, "expected a clean run, got %d finding(s): %s" % (len(serious),
                                                                       ", ".join(kinds))
    kinds = kind.split("|")
    same_kind = [f for f in findings if f["kind"] in kinds]
    if not same_kind:
        got = ", ".join(sorted({f["kind"] for f in findings})) or "no findings"
        return False, "expected %s, got %s" % (kind, got)
    with_kernel = [f for f in same_kind if kernel is None or _names_kernel(f, kernel)]
    if not with_kernel:
        return False, "found %s, but none names kernel %s" % (kind, kernel)
    with_loc = [f for f in with_kernel if location is None or _names_location(f, location)]
    if not with_loc:
        return False, "found %s in %s, but none names %s" % (kind, kernel or "a kernel", location)
    return True, "found %s%s%s" % (with_loc[0]["kind"], " in " + kernel if kernel else "",
                                    " at " + location if location else "")


def main(argv):
    if len(argv) < 3 or len(argv) > 5:
        sys.stderr.write("usage: findings.py OUTPUT_FILE KIND [KERNEL|-] [FILE:LINE|-]\n")
        return 2
    try:
        with open(argv[1], encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError as err:
        sys.stderr.write("findings.py: cannot read %s: %s\n" % (argv[1], err.strerror))
        return 2
    kernel = argv[3] if len(argv) > 3 and argv[3] != "-" else None
    location = argv[4] if len(argv) > 4 and argv[4] != "-" else None
    ok, why = match(extract(text), argv[2], kernel, location)
    print(why)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
