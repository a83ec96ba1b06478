#!/usr/bin/env bash
# README.md's status section: every point (bullet or sub-bullet, with its continuation lines)
# that states a number outside `code` names the result file it comes from, as a `NAME.md` that
# exists in bench/results/; no cited name is a glob or missing. A number without its source
# fails, so does a citation of a file that is not there.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR (only SOURCE_DIR is used).
set -u
src="${2:?usage: readme_status.sh CUCHECK_BIN SOURCE_DIR BINARY_DIR}"
command -v python3 >/dev/null || { echo "python3 needed"; exit 77; }
python3 - "$src" <<'PY'
import os
import re
import sys

root = sys.argv[1]
results = os.path.join(root, "bench", "results")
with open(os.path.join(root, "README.md"), encoding="utf-8") as fh:
    text = fh.read()
m = re.search(r"^## Status\b[^\n]*\n(.*?)(?=^## )", text, re.S | re.M)
if not m:
    print("README.md has no '## Status' section")
    sys.exit(1)
points, current = [], None
for line in m.group(1).splitlines():
    if re.match(r"^\s*- ", line) or (line.strip() and current is None):
        current = [line.strip()]
        points.append(current)
    elif not line.strip():
        current = None
    else:
        current.append(line.strip())
bad = 0
for point in (" ".join(p) for p in points):
    cited = [c for c in re.findall(r"`([^`]+)`", point) if c.endswith(".md")]
    for name in cited:
        base = os.path.basename(name)
        if "*" in name or not os.path.isfile(os.path.join(results, base)):
            print("FAIL: cites %s, which is not a file in bench/results/: %s" % (name, point[:100]))
            bad += 1
    prose = re.sub(r"`[^`]*`", "", point)
    numbers = re.findall(r"(?<![\w.])\d[\d,.]*", prose)
    if numbers and not cited:
        print("FAIL: numbers %s without a result file: %s" % (", ".join(numbers[:4]), point[:100]))
        bad += 1
print("README status: %d point(s), %d problem(s)" % (len(points), bad))
sys.exit(1 if bad else 0)
PY
