#!/usr/bin/env python3
"""Overhead benchmarks: runs each workload of bench/workloads.json natively, under
`cucheck <tool> [opts]` and under its anchor tools (compute-sanitizer, TORCH_CUDA_SANITIZER=1,
CUDA_LAUNCH_BLOCKING=1, nsys, torch.profiler), N repetitions each, and prints a markdown table
of medians, min/max and ratios vs native and vs the anchor (also written to --out).
The time of a run is the BENCH_TIME_MS the workload prints (milliseconds per timed iteration,
after warm-up), or the wall time of the whole process when it prints none. A workload's
`mode_args` may give a slow mode fewer iterations; per-iteration times still compare.
.cu workloads are built with nvcc into --build-dir. The table is rewritten to --out after every
mode, so an interrupted run keeps what it measured. Without a GPU: prints
"no GPU: benchmarks skipped" and exits 0.

usage: run_bench.py [--cucheck BIN] [--reps N] [--only NAME]... [--modes M,M] [--out FILE]
Exit status: 0, or 1 if a run that was available failed (a non-zero exit or a timeout), 2 on a
bad configuration. Standard library only (python3 >= 3.9).
"""
import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CUDA_BIN_DIRS = ["/usr/local/cuda/bin", "/usr/local/cuda/compute-sanitizer"]
TIME_LINE = re.compile(r"^BENCH_TIME_MS\s+([0-9]+(?:\.[0-9]*)?)\s*$", re.M)
SKIP_LINE = re.compile(r"^BENCH_SKIPPED\b(.*)$", re.M)


class ConfigError(Exception):
    pass


def gpu_present():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and any(l.startswith("GPU ") for l in out.stdout.splitlines())


def which(name):
    found = shutil.which(name)
    if found:
        return found
    for d in CUDA_BIN_DIRS:
        cand = os.path.join(d, name)
        if os.access(cand, os.X_OK):
            return cand
    return None


def load_config(path):
    try:
        with open(path, encoding="utf-8") as fh:
            cfg = json.load(fh)
    except OSError as err:
        raise ConfigError("%s: cannot read: %s" % (path, err.strerror))
    except ValueError as err:
        raise ConfigError("%s: not valid JSON: %s" % (path, err))
    if not isinstance(cfg, dict) or not isinstance(cfg.get("workloads"), list):
        raise ConfigError("%s: needs a 'workloads' list" % path)
    anchors = cfg.get("anchors", {})
    if not isinstance(anchors, dict):
        raise ConfigError("%s: 'anchors' must be an object" % path)
    for i, w in enumerate(cfg["workloads"]):
        where = "%s: workload %d" % (path, i + 1)
        if not isinstance(w, dict) or not isinstance(w.get("name"), str) or \
                not isinstance(w.get("source"), str):
            raise ConfigError("%s: needs a 'name' and a 'source'" % where)
        if not w["source"].endswith((".cu", ".py")):
            raise ConfigError("%s: source %s is neither .cu nor .py" % (where, w["source"]))
        for key in ("args", "libs", "anchors"):
            if not all(isinstance(x, str) for x in w.get(key, [])):
                raise ConfigError("%s: '%s' must be a list of strings" % (where, key))
        margs = w.get("mode_args", {})
        if not isinstance(margs, dict) or not all(
                isinstance(v, list) and all(isinstance(x, str) for x in v) for v in margs.values()):
            raise ConfigError("%s: 'mode_args' must map mode labels to lists of strings" % where)
        for a in w.get("anchors", []):
            if a not in anchors:
                raise ConfigError("%s: unknown anchor %s" % (where, a))
        for c in w.get("cucheck", []):
            if not isinstance(c, dict) or not isinstance(c.get("tool"), str):
                raise ConfigError("%s: each 'cucheck' entry needs a 'tool'" % where)
    return cfg


def gencode_flags():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=60)
        caps = sorted({l.strip().replace(".", "") for l in out.stdout.splitlines() if l.strip()})
    except (OSError, subprocess.TimeoutExpired):
        caps = []
    if not caps or not all(c.isdigit() for c in caps):
        caps = ["80", "90"]
    flags = []
    for cap in caps:
        flags += ["-gencode", "arch=compute_%s,code=[sm_%s,compute_%s]" % (cap, cap, cap)]
    return flags


def build(nvcc, workload, build_dir, flags):
    """Path of the built binary, or raises RuntimeError with nvcc's message."""
    src = os.path.join(HERE, workload["source"])
    out = os.path.join(build_dir, workload["name"])
    deps = [src, os.path.join(os.path.dirname(src), "bench_common.h")]
    if os.path.exists(out) and all(os.path.getmtime(out) >= os.path.getmtime(d)
                                   for d in deps if os.path.exists(d)):
        return out
    cmd = [nvcc, "-O3", "-lineinfo", "-g"] + flags + ["-o", out, src] + workload.get("libs", [])
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise RuntimeError(res.stderr.strip().splitlines()[-1] if res.stderr.strip() else
                           "nvcc failed")
    return out


def run_once(cmd, env, timeout):
    """One run: (status, wall ms, internal ms or None, skip reason or None, output tail)."""
    full_env = dict(os.environ)
    full_env.update(env)
    t0 = time.perf_counter()
    try:
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                errors="replace", env=full_env, start_new_session=True)
    except OSError as err:
        return "cannot start: %s" % err.strerror, 0.0, None, None, ""
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return "timeout after %ds" % timeout, 0.0, None, None, out[-2000:]
    wall = (time.perf_counter() - t0) * 1e3
    skip = SKIP_LINE.search(out)
    if skip:
        return "skipped", wall, None, skip.group(1).strip(), out[-2000:]
    if proc.returncode != 0:
        return "exit %d" % proc.returncode, wall, None, None, out[-2000:]
    times = TIME_LINE.findall(out)
    return "ok", wall, float(times[-1]) if times else None, None, out[-2000:]


def cucheck_tools(cucheck):
    try:
        res = subprocess.run([cucheck, "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return set()
    return {m.group(1) for m in re.finditer(r"^\s{1,8}([a-z][a-z0-9-]*)\b",
                                            res.stdout + res.stderr, re.M)}


def modes_for(workload, cfg, cucheck, tools, build_dir):
    """[(label, prefix argv or None if unavailable, env, why unavailable)] for one workload."""
    modes = [("native", [], {}, None)]
    for entry in workload.get("cucheck", []):
        opts = [str(o) for o in entry.get("opts", [])]
        label = " ".join(["cucheck", entry["tool"]] + opts)
        if not cucheck:
            modes.append((label, None, {}, "no --cucheck given"))
        elif entry["tool"] not in tools:
            modes.append((label, None, {}, "not yet available in this build"))
        else:
            modes.append((label, [cucheck, entry["tool"]] + opts + ["--"], {}, None))
    for name in workload.get("anchors", []):
        anchor = cfg["anchors"][name]
        prefix = [p.replace("{build}", build_dir).replace("{workload}", workload["name"])
                  for p in anchor.get("prefix", [])]
        env = {str(k): str(v) for k, v in anchor.get("env", {}).items()}
        needs = anchor.get("needs")
        if needs:
            path = which(needs)
            if not path:
                modes.append((name, None, env, "%s not found" % needs))
                continue
            prefix = [path if p == needs else p for p in prefix]
        modes.append((name, prefix, env, None))
    return modes


def fmt(x):
    return "-" if x is None else ("%.3f" % x if x < 100 else "%.1f" % x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", default=os.path.join(HERE, "workloads.json"))
    ap.add_argument("--cucheck", help="the cucheck binary (its modes are skipped without it)")
    ap.add_argument("--reps", type=int, help="repetitions per mode (default: config, else 5)")
    ap.add_argument("--only", action="append", help="run only this workload (repeatable)")
    ap.add_argument("--modes", help="comma-separated labels to run (native is always run), "
                    "e.g. 'cucheck memcheck,compute-sanitizer-memcheck'")
    ap.add_argument("--build-dir", default=os.path.join(HERE, "build"))
    ap.add_argument("--out", help="also write the markdown table to this file")
    ap.add_argument("--python", default=os.environ.get("PYTHON", "python3"))
    ap.add_argument("--timeout", type=int, help="seconds per run (default: config, else 900)")
    args = ap.parse_args()

    if not gpu_present():
        print("no GPU: benchmarks skipped")
        if args.out:
            with open(args.out, "w", encoding="utf-8") as fh:
                fh.write("no GPU: benchmarks skipped\n")
        return 0
    try:
        cfg = load_config(args.config)
    except ConfigError as err:
        print("error: %s" % err)
        return 2
    reps = args.reps or int(cfg.get("repetitions", 5))
    timeout = args.timeout or int(cfg.get("timeout_s", 900))
    if reps < 1:
        print("error: --reps must be at least 1")
        return 2
    wanted = set(m.strip() for m in args.modes.split(",")) if args.modes else None
    cucheck = os.path.abspath(args.cucheck) if args.cucheck else None
    if cucheck and not os.access(cucheck, os.X_OK):
        print("error: cucheck binary %s is not executable" % cucheck)
        return 2
    tools = cucheck_tools(cucheck) if cucheck else set()
    build_dir = os.path.abspath(args.build_dir)
    os.makedirs(build_dir, exist_ok=True)
    nvcc = which("nvcc")
    flags = gencode_flags()

    rows, failed = [], False
    for w in cfg["workloads"]:
        if args.only and w["name"] not in args.only:
            continue
        if w["source"].endswith(".cu"):
            if not nvcc:
                rows.append((w["name"], "all", "-", None, None, None, None, None, None,
                             "nvcc not found"))
                continue
            try:
                cmd = [build(nvcc, w, build_dir, flags)]
            except RuntimeError as err:
                rows.append((w["name"], "all", "-", None, None, None, None, None, None,
                             "build failed: %s" % err))
                failed = True
                continue
        else:
            cmd = [args.python, os.path.join(HERE, w["source"])]
        mode_args = w.get("mode_args", {})
        results, measured = {}, []
        for label, prefix, env, why in modes_for(w, cfg, cucheck, tools, build_dir):
            if wanted is not None and label != "native" and label not in wanted:
                continue
            if prefix is None:
                measured.append((label, why))
                results[label] = ([], [])
                continue
            print("%s: %s x%d ..." % (w["name"], label, reps), flush=True)
            walls, internals, notes = [], [], []
            for _ in range(reps):
                argv = prefix + cmd + mode_args.get(label, w.get("args", []))
                status, wall, internal, skip, tail = run_once(argv, env, timeout)
                if status == "skipped":
                    notes.append("skipped: %s" % skip)
                    break
                if status != "ok":
                    notes.append(status)
                    failed = True
                    sys.stderr.write("%s / %s: %s\n%s\n" % (w["name"], label, status, tail))
                    break
                walls.append(wall)
                if internal is not None:
                    internals.append(internal)
            results[label] = (walls, internals if len(internals) == len(walls) else [])
            measured.append((label, "; ".join(notes) or "%d run(s)" % len(walls)))
            use = results[label][1] or walls
            print("%s: %s: median %s ms" % (w["name"], label,
                                           fmt(statistics.median(use)) if use else "-"),
                  flush=True)
            write_table(args.out, rows + workload_rows(w, measured, results), quiet=True)
        rows += workload_rows(w, measured, results)
    write_table(args.out, rows)
    return 1 if failed else 0


def workload_rows(w, measured, results):
    """Table rows of one workload; ratios over the modes measured so far."""
    out = []
    for label, note in measured:
        walls, internals = results[label]
        use = internals or walls
        out.append((w["name"], label,
                    "BENCH_TIME_MS" if internals else ("wall" if walls else "-"),
                    statistics.median(use) if use else None, min(use) if use else None,
                    max(use) if use else None, statistics.median(walls) if walls else None,
                    ratio(results, label, "native"),
                    ratio(results, label, w.get("ratio_anchor")), note))
    return out


def write_table(path, rows, quiet=False):
    """The markdown table of rows: printed (unless quiet) and written to path (if any)."""
    table = ["| workload | mode | metric | median ms | min ms | max ms | wall median ms "
             "| x native | x anchor | runs |", "|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        table.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r[0], r[1], r[2], fmt(r[3]), fmt(r[4]), fmt(r[5]), fmt(r[6]),
            "-" if r[7] is None else "%.2fx" % r[7], "-" if r[8] is None else "%.2fx" % r[8],
            r[9]))
    text = "\n".join(table) + "\n"
    if not quiet:
        print(text, end="")
    if path:
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(text)


def ratio(results, label, base):
    """Median of label over median of base, on the metric both have (BENCH_TIME_MS, else wall)."""
    if not base or base not in results or label not in results:
        return None
    (w1, i1), (w2, i2) = results[label], results[base]
    a, b = (i1, i2) if i1 and i2 else (w1, w2)
    if not a or not b or statistics.median(b) <= 0:
        return None
    return statistics.median(a) / statistics.median(b)


if __name__ == "__main__":
    sys.exit(main())
