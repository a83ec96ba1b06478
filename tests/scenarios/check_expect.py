"""Checks the JSON Lines findings of one replayed scenario (stdin) against the scenario's
#expect lines (see run.sh), and its text report (the file named by the second argument) against
its #expect-text lines. A comment that looks like a directive but is none of them (`# expect`,
`#expect-nothing`, `#expected`, a `#expect` without a kind) fails the scenario: a typo must not
turn a check into a comment. Standard library only."""
import json
import re
import sys

DIRECTIVE_LIKE = re.compile(r"^#\s*exp", re.I)
DIRECTIVE = re.compile(r"^#expect(-none|-note \S.*|-absent \S.*|-text \S.*|-text-absent \S.*| \S.*)$")
# A mangled kernel name belongs in "kernel_mangled" and nowhere else: #expect-absent looks past it.
MANGLED_FIELD = re.compile(r'"kernel_mangled":"(?:[^"\\]|\\.)*"')


def main() -> int:
    scn = sys.argv[1]
    text_report = ""
    if len(sys.argv) > 2:
        with open(sys.argv[2], encoding="utf-8", errors="replace") as f:
            text_report = f.read()
    expects, notes, absent, none = [], [], [], False
    texts_in, texts_out = [], []
    ok = True
    with open(scn, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if DIRECTIVE_LIKE.match(line) and not DIRECTIVE.match(line):
                print("  line %d: not a directive (#expect KIND [TEXT && ...], #expect-none, "
                      "#expect-note TEXT, #expect-absent TEXT, #expect-text TEXT, "
                      "#expect-text-absent TEXT): %s" % (number, line[:120]))
                ok = False
                continue
            if line.startswith("#expect-none"):
                none = True
            elif line.startswith("#expect-text-absent "):
                texts_out.append(line[len("#expect-text-absent "):].strip())
            elif line.startswith("#expect-text "):
                texts_in.append(line[len("#expect-text "):].strip())
            elif line.startswith("#expect-absent "):
                absent.append(line[len("#expect-absent "):].strip())
            elif line.startswith("#expect-note "):
                notes.append(line[len("#expect-note "):].strip())
            elif line.startswith("#expect "):
                rest = line[len("#expect "):].strip()
                kind, _, texts = rest.partition(" ")
                expects.append((kind, [t.strip() for t in texts.split(" && ") if t.strip()]))
    findings, got_notes = [], []
    for raw in sys.stdin.read().splitlines():
        raw = raw.strip()
        if not raw:
            continue
        try:
            rec = json.loads(raw)
        except ValueError as err:
            print("  not JSON Lines output (%s): %s" % (err, raw[:120]))
            return 1
        if not isinstance(rec, dict):
            print("  not a report record: %s" % raw[:120])
            return 1
        t = rec.get("type", "finding")
        if t == "finding":
            findings.append((rec.get("kind"), raw))
        elif t == "note":
            got_notes.append(rec.get("text", ""))
    if none and findings:
        print(f"  expected no findings, got {len(findings)}")
        ok = False
    unmatched = list(findings)
    for kind, texts in expects:
        hit = next((fnd for fnd in unmatched
                    if fnd[0] == kind and all(t in fnd[1] for t in texts)), None)
        if hit is None:
            print(f"  missing: {kind} {' && '.join(texts)}")
            ok = False
        else:
            unmatched.remove(hit)
    if expects and unmatched:
        for kind, raw in unmatched:
            print(f"  unexpected: {kind}: {raw[:200]}")
        ok = False
    if not expects and not none:
        print("  scenario has no #expect or #expect-none line")
        ok = False
    if expects and none:
        print("  scenario has both #expect and #expect-none lines")
        ok = False
    for text in absent:
        for kind, raw in findings:
            if text in MANGLED_FIELD.sub("", raw):
                print(f"  present but must be absent: {text!r} in {kind}: {raw[:200]}")
                ok = False
    for text in texts_in:
        if text not in text_report:
            print(f"  missing in the text report: {text}")
            ok = False
    for text in texts_out:
        if text in text_report:
            print(f"  present in the text report but must be absent: {text!r}")
            ok = False
    if (texts_in or texts_out) and not text_report:
        print("  no text report to check (#expect-text needs run.sh's second replay)")
        ok = False
    for n in notes:
        if not any(n in g for g in got_notes):
            print(f"  missing note: {n}")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
