"""Compares `cucheck inspect --json` with `cuobjdump --list-elf` / `--list-ptx` on given files
(e.g. PyTorch's CUDA libraries): the multiset of (kind, arch) entries must agree, and each file
must hold at least one entry (two empty lists agree on nothing: a file without device code, a
cuobjdump that failed or a cucheck that printed no JSON is a failure, not a pass).
Usage: python3 compare_cuobjdump.py CUCHECK FILE... ; prints a markdown table, exits 1 on a
mismatch or an empty comparison, 2 without files or without cuobjdump. Standard library only."""
import collections
import json
import re
import shutil
import subprocess
import sys

LINE = re.compile(r"^(ELF|PTX) file\s+\d+:\s+(\S+)$")
ARCH = re.compile(r"\.(sm_\d+[af]?|compute_\d+[af]?)\.(cubin|ptx)$")


def cuobjdump_entries(cuobjdump, path):
    """(Counter of (kind, arch), None) or (partial Counter, error text)."""
    counts = collections.Counter()
    for flag in ("--list-elf", "--list-ptx"):
        try:
            out = subprocess.run([cuobjdump, flag, path], capture_output=True, text=True,
                                 timeout=600)
        except (OSError, subprocess.TimeoutExpired) as err:
            return counts, "cuobjdump %s: %s" % (flag, err)
        if out.returncode != 0 and "does not contain" not in out.stderr:
            return counts, "cuobjdump %s exited %d: %s" % (flag, out.returncode,
                                                           out.stderr.strip()[-200:])
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
    return counts, None


def cucheck_entries(cucheck, path):
    """(Counter of (kind, arch), None) or (empty Counter, error text)."""
    try:
        out = subprocess.run([cucheck, "inspect", "--json", path], capture_output=True,
                             text=True, timeout=600)
        doc = json.loads(out.stdout)
    except (OSError, subprocess.TimeoutExpired) as err:
        return collections.Counter(), "cucheck inspect: %s" % err
    except ValueError:
        return collections.Counter(), "cucheck inspect printed no JSON (exit %d): %s" % (
            out.returncode, out.stderr.strip()[-200:])
    counts = collections.Counter()
    for f in doc.get("files", []) if isinstance(doc, dict) else []:
        for e in f.get("entries", []):
            counts[(e.get("kind"), e.get("arch"))] += 1
    return counts, None


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2:
        print("usage: compare_cuobjdump.py CUCHECK FILE... (no file given: nothing to compare)")
        return 2
    cucheck, files = argv[0], argv[1:]
    cuobjdump = shutil.which("cuobjdump") or shutil.which("/usr/local/cuda/bin/cuobjdump")
    if not cuobjdump:
        print("compare_cuobjdump.py: cuobjdump not found (PATH, /usr/local/cuda/bin)")
        return 2
    bad = 0
    print("| file | cuobjdump sass/ptx | cucheck sass/ptx | agree |")
    print("|---|---|---|---|")
    for path in files:
        (a, err_a), (b, err_b) = cuobjdump_entries(cuobjdump, path), cucheck_entries(cucheck, path)
        tot = lambda c, k: sum(v for (kk, _), v in c.items() if kk == k)
        errors = [e for e in (err_a, err_b) if e]
        if not errors and not a:
            errors.append("cuobjdump lists no device code in it: nothing compared")
        ok = a == b and not errors
        if not ok:
            bad += 1
        print(f"| {path.split('/')[-1]} | {tot(a,'sass')}/{tot(a,'ptx')} | "
              f"{tot(b,'sass')}/{tot(b,'ptx')} | {'yes' if ok else 'NO'} |")
        for e in errors:
            print(f"|  {e} | | | |")
        if a != b:
            diff = {k: (a.get(k, 0), b.get(k, 0)) for k in set(a) | set(b) if a.get(k) != b.get(k)}
            print(f"|  differences (cuobjdump, cucheck): {sorted(diff.items())[:12]} | | | |")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
