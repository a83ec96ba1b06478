"""Compares `cucheck inspect --json` with `cuobjdump --list-elf` / `--list-ptx` on given files
(e.g. PyTorch's CUDA libraries): the multiset of (kind, arch) entries must agree.
Usage: python3 compare_cuobjdump.py CUCHECK FILE... ; prints a markdown table, exits 1 on a
mismatch. Standard library only."""
import collections
import json
import re
import subprocess
import sys

LINE = re.compile(r"^(ELF|PTX) file\s+\d+:\s+(\S+)$")
ARCH = re.compile(r"\.(sm_\d+[af]?|compute_\d+[af]?)\.(cubin|ptx)$")


def cuobjdump_entries(path):
    counts = collections.Counter()
    for flag in ("--list-elf", "--list-ptx"):
        out = subprocess.run(["cuobjdump", flag, path], capture_output=True, text=True)
        for line in out.stdout.splitlines():
            m = LINE.match(line.strip())
            if not m:
                continue
            a = ARCH.search(m.group(2))
            arch = a.group(1) if a else "?"
            kind = "sass" if m.group(1) == "ELF" else "ptx"
            if kind == "ptx":
                arch = arch.replace("sm_", "compute_")
            counts[(kind, arch)] += 1
    return counts


def cucheck_entries(cucheck, path):
    out = subprocess.run([cucheck, "inspect", "--json", path], capture_output=True, text=True)
    doc = json.loads(out.stdout)
    counts, stubs = collections.Counter(), 0
    for f in doc.get("files", []):
        for e in f.get("entries", []):
            counts[(e["kind"], e["arch"])] += 1
    return counts


def main():
    cucheck, files = sys.argv[1], sys.argv[2:]
    bad = 0
    print("| file | cuobjdump sass/ptx | cucheck sass/ptx | agree |")
    print("|---|---|---|---|")
    for path in files:
        a, b = cuobjdump_entries(path), cucheck_entries(cucheck, path)
        tot = lambda c, k: sum(v for (kk, _), v in c.items() if kk == k)
        ok = a == b
        if not ok:
            bad += 1
        print(f"| {path.split('/')[-1]} | {tot(a,'sass')}/{tot(a,'ptx')} | "
              f"{tot(b,'sass')}/{tot(b,'ptx')} | {'yes' if ok else 'NO'} |")
        if not ok:
            diff = {k: (a.get(k, 0), b.get(k, 0)) for k in set(a) | set(b) if a.get(k) != b.get(k)}
            print(f"|  differences (cuobjdump, cucheck): {sorted(diff.items())[:12]} | | | |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
