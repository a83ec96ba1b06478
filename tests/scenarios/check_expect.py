"""Checks the JSON Lines findings of one replayed scenario (stdin) against the scenario's
#expect lines (see run.sh). Standard library only."""
import json
import sys


def main() -> int:
    scn = sys.argv[1]
    expects, notes, absent, none = [], [], [], False
    with open(scn, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
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
        rec = json.loads(raw)
        t = rec.get("type", "finding")
        if t == "finding":
            findings.append((rec.get("kind"), raw))
        elif t == "note":
            got_notes.append(rec.get("text", ""))
    ok = True
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
