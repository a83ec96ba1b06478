"""Reads the expected-findings tables (examples/expected.txt, tests/gpu/expected.txt,
tests/gpu/attribution/expected.txt).

One row per expected finding, whitespace-separated columns, '#' starts a comment line:
    example tool kind kernel location exit anchor [checks]
'-' means "none / not checked"; kind 'none' means the run must report no error or warning (the
only row of its program and tool). Several rows of one (example, tool) are several findings of
one run: each must be found, and any other error or warning fails the run. checks is an
optional comma-separated list of
  flags:  same-output (the program's output and exit status under `cucheck <tool>` must equal
          the native ones), optional (the finding may be absent: a fault that depends on the
          memory map), and the attribution runner's exact, candidates, graph, graph-node, rerun,
          p:CHECK, o:CHECK
  values: thread=X.Y.Z, block=X.Y.Z (a component may be '*'), size=N, address=HEX,
          access=read|write|atomic, other=KERNEL (the other side of a race, a substring),
          other-access=read|write; alternatives joined by '|'.
The location is matched exactly (tests/gpu/findings.py): the device line of a device finding,
the launch's host stack of an async-error, the host frames of anything else.
Standard library only.
"""
import os

import findings

COLUMNS = ("example", "tool", "kind", "kernel", "location", "exit", "anchor")
FLAGS = ("same-output", "optional", "exact", "candidates", "graph", "graph-node", "rerun")
VALUE_KEYS = ("thread", "block", "size", "address", "access", "other", "other-access")


class ExpectationError(Exception):
    """A malformed expectations file (message names file and line)."""


def _parse_exit(text, where):
    try:
        return int(text)
    except ValueError:
        raise ExpectationError("%s: exit status %r is not a number" % (where, text))


def _parse_checks(text, where):
    """(flags, values) of a checks column."""
    flags, values = [], {}
    for item in (t for t in text.split(",") if t):
        key, eq, val = item.partition("=")
        if eq:
            if key not in VALUE_KEYS:
                raise ExpectationError("%s: unknown check %r (values: %s)"
                                       % (where, key, ", ".join(VALUE_KEYS)))
            values[key] = val
        elif item in FLAGS or (item[:2] in ("p:", "o:") and item[2:] in FLAGS):
            flags.append(item)
        else:
            raise ExpectationError("%s: unknown check %r (flags: %s, p:FLAG, o:FLAG)"
                                   % (where, item, ", ".join(FLAGS)))
    return flags, values


def _expect(row, values, where):
    """The findings.Expect of a row (None for kind 'none')."""
    if row["kind"] == "none":
        if values or "optional" in row["checks"]:
            raise ExpectationError("%s: a 'none' row takes no values and is not optional" % where)
        return None
    dev = {k: v.split("|") for k, v in values.items() if k in findings.VALUE_KEYS}
    try:
        return findings.Expect(row["kind"], row["kernel"], row["location"], dev,
                               values.get("other"), values.get("other-access"),
                               "optional" in row["checks"])
    except findings.SpecError as err:
        raise ExpectationError("%s: %s" % (where, err))


def load(path, source_dir):
    """Rows of the table at path as dicts; source_dir is where the example sources live."""
    rows = []
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.readlines()
    except OSError as err:
        raise ExpectationError("%s: cannot read: %s" % (path, err.strerror))
    for number, line in enumerate(lines, 1):
        text = line.strip()
        if not text or text.startswith("#"):
            continue
        where = "%s:%d" % (path, number)
        fields = text.split()
        if len(fields) not in (len(COLUMNS), len(COLUMNS) + 1):
            raise ExpectationError("%s: expected %d or %d columns, found %d"
                                   % (where, len(COLUMNS), len(COLUMNS) + 1, len(fields)))
        row = dict(zip(COLUMNS, fields))
        row["exit"] = _parse_exit(row["exit"], where)
        checks = fields[len(COLUMNS)] if len(fields) > len(COLUMNS) else ""
        row["checks"], values = _parse_checks(checks, where)
        row["where"] = where
        row["source_dir"] = source_dir
        for key in ("kernel", "location", "anchor"):
            if row[key] == "-":
                row[key] = None
        if row["location"] is not None and ":" not in row["location"]:
            raise ExpectationError("%s: location %r is not file:line" % (where, row["location"]))
        row["expect"] = _expect(row, values, where)
        rows.append(row)
    check_groups(rows)
    return rows


def groups(rows):
    """[(example, tool, [rows])] in table order: the rows one cucheck run is judged by."""
    out, index = [], {}
    for row in rows:
        key = (row["example"], row["tool"])
        if key not in index:
            index[key] = len(out)
            out.append((row["example"], row["tool"], []))
        out[index[key]][2].append(row)
    return out


def check_groups(rows):
    """A 'none' row is the only row of its (example, tool); all rows of one program agree on its
    native exit status."""
    exits = {}
    for example, tool, members in groups(rows):
        if len(members) > 1 and any(r["kind"] == "none" for r in members):
            raise ExpectationError("%s: a 'none' row must be the only row of %s under %s"
                                   % (members[0]["where"], example, tool))
        for r in members:
            if exits.setdefault(example, r["exit"]) != r["exit"]:
                raise ExpectationError("%s: exit %d, but another row of %s says %d"
                                       % (r["where"], r["exit"], example, exits[example]))


def expects_of(members):
    """The findings.Expect list of one group ([] = a clean run)."""
    return [r["expect"] for r in members if r["expect"] is not None]


def is_python(row):
    return row["example"].endswith(".py")


def source_path(row):
    """The source file of a row's program (.cu or .py)."""
    name = row["example"] if is_python(row) else row["example"] + ".cu"
    return os.path.join(row["source_dir"], name)


def check_marker(row):
    """None if the row's location points at a line with a BUG marker, else a message."""
    if row["location"] is None:
        return None
    file_part, _, line_part = row["location"].rpartition(":")
    try:
        line_no = int(line_part)
    except ValueError:
        return "%s: location %r has no line number" % (row["where"], row["location"])
    path = os.path.join(row["source_dir"], file_part)
    try:
        with open(path, encoding="utf-8") as fh:
            lines = fh.read().splitlines()
    except OSError:
        return "%s: location file %s cannot be read" % (row["where"], path)
    if line_no < 1 or line_no > len(lines) or "BUG" not in lines[line_no - 1]:
        return "%s: %s is not the line with the BUG marker" % (row["where"], row["location"])
    return None
