#!/usr/bin/env python3
"""Round-robin timing of the overhead workloads under two cucheck builds, for the overhead
regression check (bench/regression.sh). Every round runs each workload once natively, then each
cucheck mode under the baseline build and under the current build back to back; which of the two
goes first alternates from round to round, so that drift of the machine falls on both alike.
Every run is appended to a JSON file as soon as it ends (bench/regression_table.py turns it into
the table), so a batch cut short keeps what it measured.

A run is bounded by its workload's timeout and by --deadline: a round starts only when a round as
long as the longest so far still fits, and a run never outlives the deadline. A combination that
failed or timed out is not run again in later rounds. --dry-run prints the plan and runs nothing.

usage: regression_runs.py --current CUCHECK [--baseline CUCHECK] --bin-dir DIR --json FILE
                          [--rounds N] [--deadline EPOCH_S] [--only W]... [--modes M,M] [--dry-run]
Standard library only (python3 >= 3.9).
"""
import argparse
import json
import os
import re
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
METRIC_LINE = re.compile(r"^(BENCH_TIME_MS|BENCH_THREAD_CPU_MS)\s+([0-9]+(?:\.[0-9]*)?)\s*$", re.M)
SKIP_LINE = re.compile(r"^BENCH_SKIPPED\b(.*)$", re.M)

# cucheck modes: label (as in the table) and the arguments after `cucheck`.
MODES = [
    ("run", ["run"]),
    ("run --track off", ["run", "--track", "off"]),
    ("memcheck", ["memcheck"]),
    ("memcheck --mode full", ["memcheck", "--mode", "full"]),
    ("streamcheck", ["streamcheck"]),
    ("streamcheck --mode api", ["streamcheck", "--mode", "api"]),
    ("profile", ["profile"]),
]

# Workloads: name, seconds per run, modes left out (with the reason shown in the table).
WORKLOADS = [
    ("vecadd", 60, {}),
    ("reduce", 60, {}),
    ("gemm_cublas", 60, {}),
    ("tiny_launches", 60, {}),
    ("transformer_step", 150,
     {"memcheck --mode full": "too slow for one batch (about 10x native per step)"}),
]


def workload_argv(name, args):
    """The workload's command line (a built .cu binary, or the PyTorch step under --python)."""
    if name == "transformer_step":
        return [args.python, os.path.join(HERE, "workloads", "transformer_step.py"),
                "--steps", str(args.torch_steps), "--warmup", str(args.torch_warmup)]
    argv = [os.path.join(args.bin_dir, name)]
    if name == "tiny_launches":
        argv.append(str(args.tiny))
    return argv


def selected(args):
    """([(workload, timeout, skips)], [(mode label, cucheck args)]) after --only and --modes."""
    names = [w[0] for w in WORKLOADS]
    labels = [m[0] for m in MODES]
    for w in args.only or []:
        if w not in names:
            raise SystemExit("regression_runs.py: unknown workload %r (known: %s)"
                             % (w, ", ".join(names)))
    wanted = [m.strip() for m in args.modes.split(",") if m.strip()] if args.modes else labels
    for m in wanted:
        if m not in labels:
            raise SystemExit("regression_runs.py: unknown mode %r (known: %s)"
                             % (m, ", ".join(labels)))
    workloads = [w for w in WORKLOADS if not args.only or w[0] in args.only]
    return workloads, [m for m in MODES if m[0] in wanted]


def plan_round(rnd, workloads, modes, have_baseline):
    """The runs of round rnd (1-based), in order: (workload, mode label or None, build)."""
    builds = ["baseline", "current"] if have_baseline else ["current"]
    if rnd % 2 == 0:
        builds.reverse()
    steps = []
    for name, _, skips in workloads:
        steps.append((name, None, "native"))
        for label, _ in modes:
            if label in skips:
                continue
            steps.extend((name, label, b) for b in builds)
    return steps


def command(step, args, mode_args):
    name, label, build = step
    prog = workload_argv(name, args)
    if build == "native":
        return prog
    cucheck = args.baseline if build == "baseline" else args.current
    return [cucheck] + mode_args[label] + ["--"] + prog


def clean_env():
    """The environment of every run: this one without CUCHECK_* knobs (both builds alike)."""
    return {k: v for k, v in os.environ.items() if not k.startswith("CUCHECK_")}


def run_once(argv, timeout, cwd, env):
    """One run: {status, wall_ms, metrics, [skip], [tail]}; status ok, skipped, exit N, timeout."""
    t0 = time.perf_counter()
    try:
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                errors="replace", cwd=cwd, env=env, start_new_session=True)
    except OSError as err:
        return {"status": "cannot start: %s" % err.strerror, "wall_ms": None, "metrics": {}}
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return {"status": "timeout", "timeout_s": round(timeout, 1), "wall_ms": None,
                "metrics": {}, "tail": out[-1500:]}
    wall = (time.perf_counter() - t0) * 1e3
    skip = SKIP_LINE.search(out)
    if skip:
        return {"status": "skipped", "skip": skip.group(1).strip(), "wall_ms": wall,
                "metrics": {}}
    metrics = {}
    for key, value in METRIC_LINE.findall(out):
        metrics[key] = float(value)  # the last line of each kind wins
    if proc.returncode != 0:
        return {"status": "exit %d" % proc.returncode, "wall_ms": wall, "metrics": {},
                "tail": out[-1500:]}
    return {"status": "ok", "wall_ms": wall, "metrics": metrics}


def save(path, doc):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")
    os.replace(tmp, path)


def log(fh, text):
    fh.write(text + "\n")
    fh.flush()


def warm_up(args, workloads, mode_args, env, logf):
    """Untimed runs before round 1 (disk caches, GPU clocks): each workload natively, and the
    first workload under `cucheck run` of each build. Returns notes on what failed."""
    notes = []
    first = workloads[0][0]
    steps = [(w[0], None, "native") for w in workloads]
    steps += [(first, "run", b) for b in (["baseline"] if args.baseline else []) + ["current"]]
    for step in steps:
        left = args.deadline - time.time()
        if left < 1:
            notes.append("warm-up cut short by the time budget")
            break
        res = run_once(command(step, args, mode_args),
                       min(workloads_timeout(workloads, step[0]), left), args.cwd, env)
        log(logf, "warm-up %s / %s / %s: %s" % (step[0], step[1] or "native", step[2],
                                                res["status"]))
        if res["status"] not in ("ok", "skipped"):
            notes.append("warm-up %s %s %s: %s %s" % (
                step[2], step[1] or "", step[0], res["status"],
                res.get("tail", "")[-300:].replace("\n", " | ")))
    return notes


def workloads_timeout(workloads, name):
    return next(t for w, t, _ in workloads if w == name)


def run_round(rnd, args, workloads, modes, doc, dead, env, logf):
    """Runs round rnd into doc; returns why the batch must stop (the time budget), or None."""
    mode_args = dict(modes)
    for step in plan_round(rnd, workloads, modes, bool(args.baseline)):
        if step in dead:
            continue
        left = args.deadline - time.time()
        if left < 1:
            return "the time budget ran out in round %d (its runs so far are counted)" % rnd
        limit = workloads_timeout(workloads, step[0])
        res = run_once(command(step, args, mode_args), min(limit, left), args.cwd, env)
        if res["status"] == "timeout" and left < limit:
            return ("the time budget ran out in round %d, during %s / %s / %s (its runs so far "
                    "are counted)" % (rnd, step[0], step[1] or "native", step[2]))
        res.update({"round": rnd, "workload": step[0], "mode": step[1], "build": step[2]})
        doc["runs"].append(res)
        save(args.json, doc)
        shown = res["metrics"].get("BENCH_TIME_MS")
        log(logf, "round %d %s / %s / %s: %s%s (wall %s ms)" % (
            rnd, step[0], step[1] or "native", step[2], res["status"],
            " %.6g ms/iter" % shown if shown is not None else "",
            "%.0f" % res["wall_ms"] if res["wall_ms"] is not None else "-"))
        if res["status"] != "ok":
            dead.add(step)  # failed, timed out or skipped: not run again
    return None


def measure(args, workloads, modes, doc, logf):
    env = clean_env()
    os.makedirs(args.cwd, exist_ok=True)
    if not args.no_warmup:
        doc["notes"] += warm_up(args, workloads, dict(modes), env, logf)
        save(args.json, doc)
    dead = set()
    longest = 0.0
    for rnd in range(1, args.rounds + 1):
        if rnd > 1 and time.time() + longest > args.deadline:
            doc["stopped"] = ("stopped before round %d of %d: a round took up to %.0f s and %.0f s "
                              "were left" % (rnd, args.rounds, longest,
                                             max(0.0, args.deadline - time.time())))
            break
        t_round = time.time()
        doc["stopped"] = run_round(rnd, args, workloads, modes, doc, dead, env, logf)
        if doc["stopped"]:
            break
        longest = max(longest, time.time() - t_round)
        doc["rounds_done"] = rnd
        save(args.json, doc)
    save(args.json, doc)


def print_plan(args, workloads, modes):
    mode_args = dict(modes)
    have_baseline = bool(args.baseline)
    steps = plan_round(1, workloads, modes, have_baseline)
    print("plan: %d round(s), round-robin; round 1 (%d runs; even rounds run the current build "
          "before the baseline):" % (args.rounds, len(steps)))
    for step in steps:
        print("  %-16s %-24s %-8s %s" % (step[0], step[1] or "native", step[2],
                                          " ".join(command(step, args, mode_args))))
    for name, limit, skips in workloads:
        for label, why in skips.items():
            if label in mode_args:
                print("left out: %s / %s: %s" % (name, label, why))
    print("timeout per run: %s" % ", ".join("%s %d s" % (w, t) for w, t, _ in workloads))
    print("runs in all: %d (and %d untimed warm-up runs)" % (
        len(steps) * args.rounds, len(workloads) + (2 if have_baseline else 1)))


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--current", required=True, help="cucheck of the current tree")
    ap.add_argument("--baseline", help="cucheck of the baseline (without it: current only)")
    ap.add_argument("--bin-dir", required=True, help="where the .cu workloads were built")
    ap.add_argument("--json", help="results file (rewritten after every run)")
    ap.add_argument("--log", help="progress lines (default: stderr)")
    ap.add_argument("--cwd", default="/tmp/cucheck-regression-cwd",
                    help="working directory of the runs")
    ap.add_argument("--python", default=os.environ.get("PYTHON", "python3"))
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--deadline", type=float, help="epoch seconds no run may outlive")
    ap.add_argument("--only", action="append", help="workload to run (repeatable)")
    ap.add_argument("--modes", help="comma-separated mode labels (default: all)")
    ap.add_argument("--torch-steps", type=int, default=60)
    ap.add_argument("--torch-warmup", type=int, default=5)
    ap.add_argument("--tiny", type=int, default=10000, help="launches of tiny_launches")
    ap.add_argument("--meta", action="append", default=[], metavar="KEY=VALUE",
                    help="a line for the table's header (repeatable)")
    ap.add_argument("--no-warmup", action="store_true")
    ap.add_argument("--dry-run", action="store_true", help="print the plan, run nothing")
    args = ap.parse_args(argv)
    if args.rounds < 1:
        raise SystemExit("regression_runs.py: --rounds must be at least 1")
    return args


def run(args):
    """Measures as args say; returns the results document (also written to --json)."""
    workloads, modes = selected(args)
    if not args.json:
        raise SystemExit("regression_runs.py: --json FILE is needed to measure")
    if args.deadline is None:
        args.deadline = time.time() + 24 * 3600
    meta = {}
    for kv in args.meta:
        key, sep, value = kv.partition("=")
        if not sep:
            raise SystemExit("regression_runs.py: --meta takes KEY=VALUE, not %r" % kv)
        meta[key] = value
    meta.update({"rounds_planned": args.rounds, "torch_steps": args.torch_steps,
                 "torch_warmup": args.torch_warmup, "tiny_launches": args.tiny,
                 "modes": [m[0] for m in modes],
                 "left_out": {w: s for w, _, s in workloads if s},
                 "planned": [[w, m] for w, _, skips in workloads for m, _ in modes
                             if m not in skips],
                 "baseline_build": bool(args.baseline)})
    doc = {"meta": meta, "notes": [], "runs": [], "rounds_done": 0, "stopped": None}
    logf = open(args.log, "a", encoding="utf-8") if args.log else sys.stderr
    try:
        measure(args, workloads, modes, doc, logf)
    finally:
        if logf is not sys.stderr:
            logf.close()
    return doc


# ---- self-test with stand-in programs ---------------------------------------------------------

FAKE_WORKLOAD = """#!/bin/sh
# stand-in workload: per-iteration time scaled by the stand-in cucheck's FAKE_SCALE
[ -n "${CUCHECK_LEFTOVER:-}" ] && { echo "BENCH_TIME_MS 999"; exit 0; }
awk -v s="${FAKE_SCALE:-1}" 'BEGIN { printf "BENCH_TIME_MS %.6f\\n", 0.5 * s;
                                     printf "BENCH_THREAD_CPU_MS %.6f\\n", 0.25 * s }'
"""
FAKE_CUCHECK = """#!/bin/sh
# stand-in cucheck: FAKE_SCALE by build; the current build fails under streamcheck
scale=%s
case " $* " in
    *" streamcheck "*) [ "$scale" = 1.05 ] && { echo "streamcheck broke" >&2; exit 3; };;
esac
export FAKE_SCALE=$scale
while [ "$1" != "--" ]; do shift; done
shift
exec "$@"
"""


def selftest():
    import tempfile
    sys.path.insert(0, HERE)
    import regression_table  # the table of what this measured

    checks = 0

    def check(cond, what):
        nonlocal checks
        checks += 1
        if not cond:
            raise AssertionError(what)

    steps = plan_round(1, WORKLOADS, MODES, True)
    check(steps[0] == ("vecadd", None, "native"), "a round starts with the native run")
    check(steps[1:3] == [("vecadd", "run", "baseline"), ("vecadd", "run", "current")],
          "baseline then current in odd rounds")
    check(plan_round(2, WORKLOADS, MODES, True)[1:3] ==
          [("vecadd", "run", "current"), ("vecadd", "run", "baseline")],
          "current then baseline in even rounds")
    check(("transformer_step", "memcheck --mode full", "current") not in steps,
          "memcheck --mode full is left out on the PyTorch step")
    check(len(steps) == 4 * 15 + 13, "73 runs per round, got %d" % len(steps))
    check(len(plan_round(1, WORKLOADS, MODES, False)) == 4 * 8 + 7, "current only: 39 runs")

    with tempfile.TemporaryDirectory() as tmp:
        bins = os.path.join(tmp, "bin")
        os.makedirs(bins)
        for name, text in [("vecadd", FAKE_WORKLOAD), ("tiny_launches", FAKE_WORKLOAD),
                           ("python", FAKE_WORKLOAD), ("cc-base", FAKE_CUCHECK % "1.00"),
                           ("cc-cur", FAKE_CUCHECK % "1.05")]:
            path = os.path.join(bins, name)
            with open(path, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.chmod(path, 0o755)
        os.environ["CUCHECK_LEFTOVER"] = "1"  # must not reach the runs
        common = ["--baseline", os.path.join(bins, "cc-base"), "--current",
                  os.path.join(bins, "cc-cur"), "--bin-dir", bins, "--cwd", tmp,
                  "--python", os.path.join(bins, "python"), "--log", os.path.join(tmp, "log")]
        three = ["--only", "vecadd", "--only", "tiny_launches", "--only", "transformer_step",
                 "--modes", "run,streamcheck,memcheck --mode full"]
        doc = run(parse_args(common + three +
                             ["--rounds", "3", "--json", os.path.join(tmp, "r.json")]))
        del os.environ["CUCHECK_LEFTOVER"]
        with open(os.path.join(tmp, "r.json"), encoding="utf-8") as fh:
            check(json.load(fh) == doc, "the JSON file holds every run")
        check(doc["rounds_done"] == 3 and doc["stopped"] is None, "three rounds done")
        ok = [r for r in doc["runs"] if r["status"] == "ok"]
        check(all(r["metrics"]["BENCH_TIME_MS"] < 999 for r in ok), "CUCHECK_* knobs cleared")
        failed = [r for r in doc["runs"] if r["status"] != "ok"]
        check(len(failed) == 3 and all(r["round"] == 1 and r["build"] == "current" and
                                       r["mode"] == "streamcheck" and r["status"] == "exit 3"
                                       for r in failed),
              "a failed combination is not run again: %r" % failed)
        check(not any(r["workload"] == "transformer_step" and r["mode"] == "memcheck --mode full"
                      for r in doc["runs"]), "left-out combination not run")
        text, status = regression_table.build_table(doc)
        row = [l for l in text.splitlines() if l.startswith("| vecadd | run |")][0]
        check(row.endswith("| REGRESSED |") and "| 1.050 |" in row,
              "5%% slower current build: REGRESSED, got %r" % row)
        check("FAILED (current: exit 3)" in text and status == 1, "failure under current shown")
        check("| transformer_step | run | 0.5000 |" in text, "the PyTorch step's row")

        # A deadline that round 1 fits and round 2 does not: stops with a reason.
        slow = os.path.join(bins, "vecadd")
        with open(slow, "a", encoding="utf-8") as fh:
            fh.write("sleep 0.5\n")
        t0 = time.time()
        doc = run(parse_args(common + ["--only", "vecadd", "--modes", "run", "--rounds", "3",
                                            "--no-warmup", "--deadline", str(t0 + 2.5),
                                            "--json", os.path.join(tmp, "r2.json")]))
        check(doc["rounds_done"] == 1 and "stopped before round 2" in (doc["stopped"] or ""),
              "budget: stop before a round that cannot fit, got %r" % doc["stopped"])
        check(time.time() - t0 < 2.5, "no run outlives the deadline")
    print("regression_runs selftest: %d checks passed" % checks)
    return 0


def main():
    if sys.argv[1:] == ["--selftest"]:
        return selftest()
    args = parse_args(sys.argv[1:])
    if args.dry_run:
        print_plan(args, *selected(args))
        return 0
    run(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
