"""Checks the JSON Lines findings of one replayed scenario (stdin) against the scenario's
#expect lines (see run.sh). A comment that looks like a directive but is none of them (`# expect`,
`#expect-nothing`, `#expected`, a `#expect` without a kind) fails the scenario: a typo must not
turn a check into a comment. Standard library only."""
import json
import re
import sys

DIRECTIVE_LIKE = re.compile(r"^#\s*exp", re.I)
DIRECTIVE = re.compile(r"^#expect(-none|-note \S.*|-absent \S.*| \S.*)$")


def main() -> int:
    scn = sys.argv[1]
    expects, notes, absent, none = [], [], [], False
    ok = True
    with open(scn, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if DIRECTIVE_LIKE.match(line) and not DIRECTIVE.match(line):
                print("  line %d: not a directive (#expect KIND [TEXT && ...], #expect-none, "
                      "#expect-note TEXT, #expect-absent TEXT): %s" % (number, line[:120]))
                ok = False
                continue
            if line.startswith("#expect-none"):
                none = True
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
            if text in raw:
                print(f"  present but must be absent: {text!r} in {kind}: {raw[:200]}")
                ok = False
    for n in notes:
        if not any(n in g for g in got_notes):
            print(f"  missing note: {n}")
            ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
