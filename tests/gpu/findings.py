"""Finds cucheck findings in a tool's output and matches them against expectations.

The output may be one JSON document, JSON Lines, or JSON mixed with the program's own output;
every JSON value found is searched for finding objects (objects with a string "kind" and a
"message" or "severity").

An expectation (Expect) says what one finding must be:
  kind      the kind, alternatives joined by '|'
  kernel    a substring of the kernel the finding is about (alternatives joined by '|'): its own
            device location's kernel; for an async-error also the launches it blames (related
            entries "faulting launch", "candidate launch", "graph launch", "candidate node")
  location  FILE:LINE, matched by base name and line: the finding's device location exactly when
            it has a device file; else, for an async-error, the host stack of a launch it
            blames; else the finding's own host frames (never a related place's)
  values    exact device values: thread and block X.Y.Z (a component may be '*'), size,
            address (hex), access (read, write, atomic); alternatives joined by '|'
  other     the other side of a race: a substring of the kernel of its "previous access"
            (alternatives '|'), and other_access its access
  optional  the finding may be absent (a fault that depends on the memory map)
  device    the finding must carry the device fields thread, block, address and size
match_set() assigns every expectation its own error or warning finding and fails on a required
one left without, and on any error or warning finding left over (an unexpected finding).

As a command:  python3 findings.py OUTPUT_FILE KIND [KERNEL|-] [FILE:LINE|-]
prints one verdict line for one expectation; exit 0 on a match, 1 on a mismatch, 2 on bad
arguments. KIND 'none' matches when no finding of severity error or warning is present.
Standard library only.
"""
import json
import os
import sys

_DECODER = json.JSONDecoder()
LAUNCH_ROLES = ("faulting launch", "candidate launch", "graph launch", "candidate node")
VALUE_KEYS = ("thread", "block", "size", "address", "access")


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


def severity_of(finding):
    sev = finding.get("severity", "error")
    if isinstance(sev, int):
        return {0: "info", 1: "warning", 2: "error"}.get(sev, "error")
    return str(sev).lower()


def serious(found):
    """The findings of severity error or warning (info findings never count)."""
    return [f for f in found if severity_of(f) in ("error", "warning")]


# ---- expectations ----

class SpecError(ValueError):
    """A malformed expectation (the message says which part)."""


def _alternatives(text):
    return [t for t in text.split("|") if t] if text else []


def _check_xyz(text):
    parts = text.split(".")
    if len(parts) != 3 or not all(p == "*" or p.isdigit() for p in parts):
        raise SpecError("%r is not X.Y.Z (numbers or '*')" % text)


class Expect:
    """One expected finding (see the module's comment)."""

    def __init__(self, kind, kernel=None, location=None, values=None, other=None,
                 other_access=None, optional=False, device=False):
        if not kind:
            raise SpecError("an expectation needs a kind")
        self.kind, self.kernel, self.location = kind, kernel, location
        self.values = dict(values or {})
        self.other, self.other_access, self.optional = other, other_access, optional
        self.device = device
        for key, alts in self.values.items():
            if key not in VALUE_KEYS:
                raise SpecError("unknown value %r (%s)" % (key, ", ".join(VALUE_KEYS)))
            if not alts:
                raise SpecError("value %s= is empty" % key)
            for alt in alts:
                if key in ("thread", "block"):
                    _check_xyz(alt)
                elif key == "size" and not alt.isdigit():
                    raise SpecError("size %r is not a number" % alt)
                elif key == "address":
                    try:
                        int(alt, 16)
                    except ValueError:
                        raise SpecError("address %r is not hexadecimal" % alt)
        if location is not None:
            base, _, line = location.rpartition(":")
            if not base or not line.isdigit():
                raise SpecError("location %r is not FILE:LINE" % location)

    @classmethod
    def from_spec(cls, spec):
        """'kind=race|stream-race;kernel=consume;other=produce;thread=0.0.0;optional' -> Expect.
        Keys: kind, kernel, location (or at), other, other-access, thread, block, size, address,
        access, and the flags optional and device."""
        fields, values, flags = {}, {}, set()
        for item in (i.strip() for i in spec.split(";")):
            if not item:
                continue
            if item in ("optional", "device"):
                flags.add(item)
                continue
            key, eq, val = item.partition("=")
            if not eq:
                raise SpecError("%r is not KEY=VALUE" % item)
            if key in VALUE_KEYS:
                values[key] = _alternatives(val)
            elif key in ("kind", "kernel", "location", "at", "other", "other-access"):
                fields["location" if key == "at" else key.replace("-", "_")] = val or None
            else:
                raise SpecError("unknown key %r" % key)
        return cls(fields.get("kind"), fields.get("kernel"), fields.get("location"), values,
                   fields.get("other"), fields.get("other_access"), "optional" in flags,
                   "device" in flags)

    def describe(self):
        parts = [self.kind]
        if self.kernel:
            parts.append("in " + self.kernel)
        if self.location:
            parts.append("at " + self.location)
        for key in VALUE_KEYS:
            if key in self.values:
                parts.append("%s %s" % (key, "|".join(self.values[key])))
        if self.other:
            parts.append("against " + self.other + (
                " (" + self.other_access + ")" if self.other_access else ""))
        if self.optional:
            parts.append("(optional)")
        return " ".join(parts)


# ---- matching one finding ----

def _names(text, alternatives):
    return isinstance(text, str) and any(a in text for a in _alternatives(alternatives))


def _launch_entries(finding):
    return [r for r in finding.get("related", []) or []
            if isinstance(r, dict) and r.get("role") in LAUNCH_ROLES]


def _device(entry):
    d = entry.get("device") if isinstance(entry, dict) else None
    return d if isinstance(d, dict) else {}


def names_kernel(finding, kernel):
    """The finding is about kernel: its own device kernel, or a launch an async-error blames;
    for a failed API call (api-error, no kernel) the call it names ("cudaMalloc returned ...")."""
    if _names(_device(finding).get("kernel"), kernel):
        return True
    if finding.get("kind") == "async-error":
        return any(_names(_device(r).get("kernel"), kernel) for r in _launch_entries(finding))
    if finding.get("kind") == "api-error":
        message = finding.get("message")
        call = message.split(" ", 1)[0] if isinstance(message, str) else None
        return call is not None and call in _alternatives(kernel)
    return False


def _split_location(location):
    file_part, _, line_part = location.rpartition(":")
    return os.path.basename(file_part), int(line_part)


def frames_name(frames, location):
    """One of the host frames names FILE:LINE: a {"file", "line"} pair, or "FILE:LINE" in its
    text not followed by another digit."""
    base, line_no = _split_location(location)
    needle = "%s:%d" % (base, line_no)
    for frame in frames or []:
        if not isinstance(frame, dict):
            continue
        if isinstance(frame.get("file"), str):
            try:
                if os.path.basename(frame["file"]) == base and int(frame.get("line", -1)) == line_no:
                    return True
            except (TypeError, ValueError):
                pass
        text = frame.get("text")
        if isinstance(text, str):
            idx = text.find(needle)
            while idx >= 0:
                before = text[idx - 1:idx] if idx > 0 else ""
                after = text[idx + len(needle):idx + len(needle) + 1]
                if not after.isdigit() and not (before.isalnum() or before in ("_", "-", ".")):
                    return True
                idx = text.find(needle, idx + 1)
    return False


def names_location(finding, location):
    """The location rule of the module's comment."""
    base, line_no = _split_location(location)
    dev = _device(finding)
    if isinstance(dev.get("file"), str) and dev.get("file"):
        try:
            return os.path.basename(dev["file"]) == base and int(dev.get("line", -1)) == line_no
        except (TypeError, ValueError):
            return False
    if finding.get("kind") == "async-error":
        return any(frames_name(r.get("frames"), location) for r in _launch_entries(finding))
    return frames_name(finding.get("frames"), location)


def _same_xyz(got, want):
    if not isinstance(got, list) or len(got) != 3:
        return False
    return all(w == "*" or str(g) == w for g, w in zip(got, want.split(".")))


def same_value(key, got, want):
    """A device field equals one expected value (thread/block X.Y.Z, size, address, access)."""
    if key in ("thread", "block"):
        return _same_xyz(got, want)
    if key == "size":
        return str(got) == want
    if key == "access":
        return got == want
    try:
        return int(str(got), 16) == int(want, 16)
    except ValueError:
        return False


def _other_side(finding):
    for r in finding.get("related", []) or []:
        if isinstance(r, dict) and r.get("role") == "previous access":
            return r
    return None


def mismatch(finding, expect):
    """None if finding is what expect describes, else what differs (one phrase)."""
    if finding.get("kind") not in expect.kind.split("|"):
        return "kind %s" % finding.get("kind")
    if expect.kernel and not names_kernel(finding, expect.kernel):
        return "kernel %s, not %s" % (_device(finding).get("kernel"), expect.kernel)
    if expect.location and not names_location(finding, expect.location):
        dev = _device(finding)
        where = ("device line %s:%s" % (dev.get("file"), dev.get("line")) if dev.get("file")
                 else "no frame at %s" % expect.location)
        return "%s, not %s" % (where, expect.location)
    dev = _device(finding)
    if expect.device:
        missing = [k for k in ("thread", "block", "address", "size") if k not in dev]
        if missing:
            return "no device %s" % "/".join(missing)
    for key in VALUE_KEYS:
        if key in expect.values and not any(same_value(key, dev.get(key), w)
                                            for w in expect.values[key]):
            shown = ".".join(str(v) for v in dev[key]) if isinstance(dev.get(key), list) \
                else dev.get(key)
            return "%s %s, not %s" % (key, shown, "|".join(expect.values[key]))
    if expect.other or expect.other_access:
        other = _other_side(finding)
        if other is None:
            return "no other side (no \"previous access\")"
        odev = _device(other)
        if expect.other and not _names(odev.get("kernel"), expect.other):
            return "other side %s, not %s" % (odev.get("kernel"), expect.other)
        if expect.other_access and odev.get("access") != expect.other_access:
            return "other side's access %s, not %s" % (odev.get("access"), expect.other_access)
    return None


# ---- matching a whole report ----

def _assign(found, expects):
    """{expect index: finding index}: a maximum matching of expectations to findings (required
    expectations first), by augmenting paths."""
    fits = [[j for j, f in enumerate(found) if mismatch(f, e) is None] for e in expects]
    owner = {}

    def take(i, seen):
        for j in fits[i]:
            if j in seen:
                continue
            seen.add(j)
            if j not in owner or take(owner[j], seen):
                owner[j] = i
                return True
        return False

    order = [i for i, e in enumerate(expects) if not e.optional] + \
            [i for i, e in enumerate(expects) if e.optional]
    for i in order:
        take(i, set())
    return {i: j for j, i in owner.items()}


def _closest(found, expect):
    same = [f for f in found if f.get("kind") in expect.kind.split("|")]
    if not same:
        kinds = sorted({f.get("kind") for f in found})
        return "got %s" % (", ".join(kinds) if kinds else "no findings")
    why = [mismatch(f, expect) for f in same]
    if None in why:
        return "the one that fits is another expectation's (one finding each)"
    return "the closest: " + why[0] if len(same) == 1 else \
        "%d of that kind, none fits (first: %s)" % (len(same), why[0])


def summarize(finding):
    """One line naming a finding: kind, kernel, device line, thread/block, other side."""
    dev = _device(finding)
    text = str(finding.get("kind"))
    if dev.get("kernel"):
        text += " in " + str(dev["kernel"]).split("(")[0]
    if dev.get("file"):
        text += " at %s:%s" % (os.path.basename(str(dev["file"])), dev.get("line"))
    for key in ("thread", "block"):
        if isinstance(dev.get(key), list):
            text += " %s %s" % (key, ".".join(str(v) for v in dev[key]))
    other = _other_side(finding)
    if other is not None and _device(other).get("kernel"):
        text += " against " + str(_device(other)["kernel"]).split("(")[0]
    return text


def match_set(found, expects):
    """(ok, notes): every required expectation has its own error/warning finding, and no
    error/warning finding is left without an expectation. An empty list means a clean run."""
    bad = serious(found)
    assigned = _assign(bad, expects)
    notes = []
    for i, e in enumerate(expects):
        if i in assigned:
            notes.append("found " + e.describe())
        elif not e.optional:
            notes.append("MISSING %s: %s" % (e.describe(), _closest(bad, e)))
    used = set(assigned.values())
    extra = [f for j, f in enumerate(bad) if j not in used]
    for f in extra:
        notes.append("UNEXPECTED %s" % summarize(f))
    ok = all(i in assigned for i, e in enumerate(expects) if not e.optional) and not extra
    if not expects and ok:
        notes.append("clean: no errors or warnings (%d finding(s) in all)" % len(found))
    return ok, notes


def match(findings, kind, kernel=None, location=None):
    """(ok, one-line explanation): some finding is of kind (alternatives '|'), about kernel and
    at location (the rules of the module's comment). KIND 'none': no error or warning at all.
    Other findings are not looked at here (match_set does)."""
    bad = serious(findings)
    if kind == "none":
        if not bad:
            return True, "clean: no errors or warnings (%d finding(s) in all)" % len(findings)
        kinds = sorted({f["kind"] for f in bad})
        return False, "expected a clean run, got %d finding(s): %s" % (len(bad), ", ".join(kinds))
    kinds = kind.split("|")
    same_kind = [f for f in findings if f["kind"] in kinds]
    if not same_kind:
        got = ", ".join(sorted({f["kind"] for f in findings})) or "no findings"
        return False, "expected %s, got %s" % (kind, got)
    with_kernel = [f for f in same_kind if kernel is None or names_kernel(f, kernel)]
    if not with_kernel:
        return False, "found %s, but none names kernel %s" % (kind, kernel)
    with_loc = [f for f in with_kernel if location is None or names_location(f, location)]
    if not with_loc:
        return False, "found %s in %s, but none at %s" % (kind, kernel or "a kernel", location)
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
    if location is not None:
        try:
            Expect(argv[2], kernel, location)
        except SpecError as err:
            sys.stderr.write("findings.py: %s\n" % err)
            return 2
    ok, why = match(extract(text), argv[2], kernel, location)
    print(why)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
