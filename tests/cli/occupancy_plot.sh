#!/usr/bin/env bash
# cucheck occupancy --plot DIR: three self-contained SVG what-if curves, well-formed, with axes,
# a step line and the current point; rendered to PNG when rsvg-convert is installed.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR.
set -u
BIN=$1
command -v python3 >/dev/null || { echo "python3 needed"; exit 77; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
fail=0
"$BIN" occupancy --arch sm_80 --threads 256 --regs 40 --smem-dynamic 20K --plot "$T/plots" >/dev/null ||
    { echo "FAIL: --plot exit $?"; exit 1; }
for f in occupancy_block_size occupancy_registers occupancy_shared_memory; do
    svg=$T/plots/$f.svg
    [ -s "$svg" ] || { echo "FAIL: $f.svg missing"; fail=1; continue; }
    python3 - "$svg" <<'PY' || fail=1
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
ns = "{http://www.w3.org/2000/svg}"
texts = [t.text or "" for t in root.iter(ns + "text")]
paths = list(root.iter(ns + "path"))
circles = list(root.iter(ns + "circle"))
ok = (root.tag == ns + "svg" and len(paths) >= 2 and len(circles) == 1
      and any("Impact of Varying" in t for t in texts) and any(t.startswith("current:") for t in texts)
      and "100%" in texts and "Active warps per SM" in texts
      and not any(e.get("href") or e.get("{http://www.w3.org/1999/xlink}href") for e in root.iter()))
if not ok: print("FAIL: malformed chart", sys.argv[1]); sys.exit(1)
PY
    if command -v rsvg-convert >/dev/null; then
        rsvg-convert "$svg" -o "$T/$f.png" && [ -s "$T/$f.png" ] || { echo "FAIL: render $f"; fail=1; }
    fi
done
grep -q "current: 256, 48 warps (75.0%)" "$T/plots/occupancy_block_size.svg" || { echo "FAIL: current point label"; fail=1; }
"$BIN" occupancy --arch sm_80 --threads 256 --regs 40 --plot /proc/nonexistent/x >/dev/null 2>&1
[ $? -eq 2 ] || { echo "FAIL: unwritable plot dir should exit 2"; fail=1; }
exit $fail
