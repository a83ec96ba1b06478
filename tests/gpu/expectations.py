"""Reads the expected-findings tables (examples/expected.txt, tests/gpu/expected.txt).

One row per (program, tool), whitespace-separated columns, '#' starts a comment line:
    example tool kind kernel location exit anchor [checks]
'-' means "none / not checked"; kind 'none' means the run must report no error or warning;
checks is an optional comma-separated list (same-output: the program's output and exit status
under `cucheck <tool>` must equal the native ones). Standard library only.
"""
import os

COLUMNS = ("example", "tool", "kind", "kernel", "location", "exit", "anchor")


class ExpectationError(Exception):
    """A malformed expectations file (message names file and line)."""


def _parse_exit(text, where):
    try:
        return int(text)
    except ValueError:
        raise ExpectationError("%s: exit status %r is not a number" % (where, text))


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
        row["checks"] = fields[len(COLUMNS)].split(",") if len(fields) > len(COLUMNS) else []
        row["where"] = where
        row["source_dir"] = source_dir
        for key in ("kernel", "location", "anchor"):
            if row[key] == "-":
                row[key] = None
        if row["location"] is not None and ":" not in row["location"]:
            raise ExpectationError("%s: location %r is not file:line" % (where, row["location"]))
        rows.append(row)
    return rows


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
