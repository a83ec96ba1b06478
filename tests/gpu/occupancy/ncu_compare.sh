#!/usr/bin/env bash
# Compares cucheck's occupancy engine with `ncu --section Occupancy` for a few real kernels:
# occupancy_gpu --launch runs 8 launches and prints the engine's prediction for each (PRED lines);
# ncu profiles the same launches. Block limits (registers, warps, SM), theoretical occupancy and
# the shared-memory limit (against the configuration size the driver chose, occupancy_spec.md 8.4)
# must agree. Writes $OUT/occupancy_ncu_summary.txt when OUT is set. Exit 77 without nvcc/ncu/GPU.
set -u
ROOT=$(cd "$(dirname "$0")/../../.." && pwd)
command -v nvcc >/dev/null || { echo "nvcc not found"; exit 77; }
NCU=${NCU:-$(command -v ncu || echo /usr/local/cuda/bin/ncu)}
[ -x "$NCU" ] || { echo "ncu not found"; exit 77; }
B=$(mktemp -d); trap 'rm -rf "$B"' EXIT
for f in occ_engine occ_arch_rules occ_presets; do
    gcc -std=c11 -O2 -D_GNU_SOURCE -I"$ROOT/src" -c "$ROOT/src/occupancy/$f.c" -o "$B/$f.o" || exit 1
done
nvcc -O2 -w -arch="${OCC_GPU_ARCH:-native}" -I"$ROOT/src" -o "$B/occ" "$ROOT/tests/gpu/occupancy/occupancy_gpu.cu" "$B"/occ_*.o || exit 1
"$NCU" --section Occupancy --section LaunchStats --csv --page details --log-file "$B/ncu.csv" \
    "$B/occ" --launch > "$B/pred.txt" || { echo "ncu failed"; cat "$B/ncu.csv"; exit 1; }
python3 - "$B/pred.txt" "$B/ncu.csv" "${OUT:-}" <<'PY'
import csv, sys
preds = [l.split() for l in open(sys.argv[1]) if l.startswith("PRED ")]
rows = [r for r in csv.reader(l for l in open(sys.argv[2]) if l.startswith('"'))]
hdr, rows = rows[0], rows[1:]
ix = {h: i for i, h in enumerate(hdr)}
launches = {}
for r in rows:
    launches.setdefault(int(r[ix["ID"]]), {})[r[ix["Metric Name"]]] = (r[ix["Metric Unit"]], r[ix["Metric Value"]])
def num(v): return float(v.replace(",", ""))
def to_bytes(u, v):
    return num(v) * {"byte": 1, "Kbyte": 1000, "Mbyte": 1e6, "KB": 1024}.get(u, 1)
out = []
bad = 0
out.append("%-28s %6s %6s | %-18s | %-18s | %-14s | %s" % ("kernel", "thr", "dyn", "regs lim ncu/eng", "warps lim ncu/eng", "SM lim ncu/eng", "smem lim ncu/eng@config, occ ncu/eng"))
for lid, p in zip(sorted(launches), preds):
    m = launches[lid]
    _, name, thr, dyn, blocks, lr, ls, lw, lb, occ, alloc = p
    g = lambda k: m.get(k, ("", "nan"))
    nr, nw, nb, ns = (int(num(g(k)[1])) for k in ("Block Limit Registers", "Block Limit Warps", "Block Limit SM", "Block Limit Shared Mem"))
    nocc = num(g("Theoretical Occupancy")[1])
    cfg = to_bytes(*g("Shared Memory Configuration Size"))
    smem_at_cfg = int(cfg // int(alloc)) if int(alloc) else -1
    ok = nr == int(lr) and nw == int(lw) and nb == int(lb) and abs(nocc - float(occ)) < 0.01 and ns == smem_at_cfg
    bad += not ok
    out.append("%-28s %6s %6s | %8d / %-7s | %8d / %-7s | %5d / %-6s | %d / %d (config %d B), %.2f / %.2f %s" % (
        name, thr, dyn, nr, lr, nw, lw, nb, lb, ns, smem_at_cfg, cfg, nocc, float(occ), "OK" if ok else "MISMATCH"))
if len(preds) != len(launches): out.append("launch count differs: %d predictions, %d ncu launches" % (len(preds), len(launches))); bad += 1
out.append("RESULT: %s" % ("PASS" if bad == 0 and preds else "FAIL"))
text = "\n".join(out)
print(text)
if sys.argv[3]: open(sys.argv[3] + "/occupancy_ncu_summary.txt", "w").write(text + "\n")
sys.exit(1 if bad or not preds else 0)
PY
