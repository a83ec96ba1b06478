#!/usr/bin/env python3
"""The overhead regression table (bench/regression.sh): reads the runs bench/regression_runs.py
wrote and prints, per workload and cucheck mode, the native, baseline and current medians over
the rounds, their ratios, the per-round current/baseline ratios and a verdict, with a one-line
summary on top.

Verdicts (current/baseline = median of the current build's rounds / median of the baseline's):
  ok          current/baseline <= 1.03
  faster      below 0.97 by more than the noise
  noise       above 1.03, but by no more than the noise
  REGRESSED   above 1.03 by more than the noise
The noise is half the range of the per-round current/baseline ratios (each round runs both
builds back to back, so the pairs share the machine's drift); with one round there is none and
the ratio alone decides. The per-iteration time (BENCH_TIME_MS) and the launching thread's CPU
time (BENCH_THREAD_CPU_MS, the PyTorch step) decide the exit status; the whole process's wall
time (start-up and instrumentation included) is shown for information.

usage: regression_table.py RESULTS.json [--out FILE] | --selftest
Exit status: 0 no regression, 1 a REGRESSED verdict or a current run that failed where the
baseline ran, 2 nothing compared or unreadable input.
"""
import argparse
import json
import statistics
import sys

LIMIT = 1.03
METRICS = [  # key, section title, decides the exit status
    ("BENCH_TIME_MS", "Per-iteration time (BENCH_TIME_MS, ms)", True),
    ("BENCH_THREAD_CPU_MS", "Launching thread's CPU time per step (BENCH_THREAD_CPU_MS, ms)", True),
    ("wall", "Whole-process wall time (ms; start-up and instrumentation included; "
             "for information)", False),
]


def values(runs, workload, mode, build, metric):
    """{round: value} of the ok runs of one configuration."""
    out = {}
    for r in runs:
        if (r["workload"], r["mode"], r["build"]) != (workload, mode, build) or \
                r["status"] != "ok":
            continue
        v = r["wall_ms"] if metric == "wall" else r["metrics"].get(metric)
        if v is not None:
            out[r["round"]] = v
    return out


def failure(runs, workload, mode, build):
    """The status of the configuration's first run that was not ok, or None."""
    for r in runs:
        if (r["workload"], r["mode"], r["build"]) == (workload, mode, build) and \
                r["status"] != "ok":
            return r["status"] + (": " + r["skip"] if r.get("skip") else "")
    return None


def median(vals):
    return statistics.median(vals) if vals else None


def spread(vals):
    """Half the range over the median (0.02 = the rounds lie within +-2%), or None."""
    if len(vals) < 2 or statistics.median(vals) <= 0:
        return None
    return (max(vals) - min(vals)) / 2 / statistics.median(vals)


def verdict(ratio, pairs):
    """(verdict, noise) from current/baseline and the per-round ratios."""
    noise = (max(pairs) - min(pairs)) / 2 if len(pairs) >= 2 else None
    margin = noise or 0.0
    if ratio > LIMIT:
        if ratio - 1 > margin:
            return ("REGRESSED" if noise is not None else "REGRESSED (1 round)"), noise
        return "noise", noise
    if ratio < 2 - LIMIT and 1 - ratio > margin:
        return "faster", noise
    return "ok", noise


def cell(runs, workload, mode, metric):
    """One row's numbers and verdict; verdict None when the metric is absent everywhere."""
    nat = values(runs, workload, None, "native", metric)
    base = values(runs, workload, mode, "baseline", metric)
    cur = values(runs, workload, mode, "current", metric)
    row = {"native": median(list(nat.values())), "base": median(list(base.values())),
           "cur": median(list(cur.values())), "base_spread": spread(list(base.values())),
           "cur_spread": spread(list(cur.values())), "pairs": [],
           "noise": None}
    row["base_native"] = ratio(row["base"], row["native"])
    row["cur_native"] = ratio(row["cur"], row["native"])
    row["cur_base"] = ratio(row["cur"], row["base"])
    row["pairs"] = [cur[r] / base[r] for r in sorted(set(base) & set(cur)) if base[r] > 0]
    fails = {b: failure(runs, workload, m, b) for b, m in
             (("native", None), ("baseline", mode), ("current", mode))}
    if row["cur_base"] is not None:
        row["verdict"], row["noise"] = verdict(row["cur_base"], row["pairs"])
    elif base and not cur and fails["current"] and not fails["current"].startswith("skipped"):
        row["verdict"] = "FAILED (current: %s)" % fails["current"]
    elif cur and fails["baseline"]:
        row["verdict"] = "no baseline (%s)" % fails["baseline"]
    elif fails["baseline"] or fails["current"]:
        shown = {b: why for b, why in fails.items() if why}
        if len(set(shown.values())) == 1:
            row["verdict"] = "not measured: %s (%s)" % (next(iter(shown.values())),
                                                        ", ".join(shown))
        else:
            row["verdict"] = "not measured (%s)" % "; ".join("%s: %s" % kv
                                                            for kv in shown.items())
    elif not base and not cur and not any(r["workload"] == workload and r["mode"] == mode
                                          for r in runs):
        row["verdict"] = "not run (time budget)"
    elif not base and not cur:
        row["verdict"] = None  # this metric is not printed by this workload
    else:
        row["verdict"] = "no baseline run" if cur else "no current run"
    return row


def ratio(a, b):
    return a / b if a is not None and b not in (None, 0) else None


def fmt_ms(x, spr=None):
    if x is None:
        return "-"
    text = "%.1f" % x if x >= 100 else ("%.3f" % x if x >= 1 else "%#.4g" % x)
    return text + (" ±%.1f%%" % (spr * 100) if spr is not None else "")


def fmt_ratio(x):
    return "-" if x is None else "%.3f" % x


def rows_of(doc):
    """[(workload, mode)]: workloads in the order they ran, each with its modes in the order
    planned (left-out combinations included, where they would have run)."""
    order = doc["meta"].get("modes", [])
    workloads, modes = [], {}
    for r in doc["runs"]:
        if r["workload"] not in workloads:
            workloads.append(r["workload"])
        if r["mode"] is not None and r["mode"] not in modes.setdefault(r["workload"], []):
            modes[r["workload"]].append(r["mode"])
    for w, m in doc["meta"].get("planned", []):  # cut short by the time budget: shown as such
        if w not in workloads:
            workloads.append(w)
        if m not in modes.setdefault(w, []):
            modes[w].append(m)
    for w, skips in doc["meta"].get("left_out", {}).items():
        if w in workloads:
            modes.setdefault(w, []).extend(m for m in skips if m in order)
    rank = {m: i for i, m in enumerate(order)}
    return [(w, m) for w in workloads
            for m in sorted(modes.get(w, []), key=lambda m: rank.get(m, len(rank)))]


def native_note(runs, workload):
    why = failure(runs, workload, None, "native")
    return " (native: %s)" % why if why else ""


def build_table(doc):
    """(markdown text, exit status)."""
    runs = doc["runs"]
    meta = doc["meta"]
    left_out = meta.get("left_out", {})
    sections, regressed, failed, worst = [], [], [], None
    tally = {"compared": 0, "noise": 0, "uncompared": 0}
    for metric, title, gates in METRICS:
        lines = ["| workload | mode | native | baseline | current | baseline/native "
                 "| current/native | current/baseline | current/baseline per round | verdict |",
                 "|---|---|--:|--:|--:|--:|--:|--:|---|---|"]
        any_row = False
        for workload, mode in rows_of(doc):
            if mode in left_out.get(workload, {}):
                if metric == "BENCH_TIME_MS":
                    lines.append("| %s | %s | | | | | | | | left out: %s |"
                                 % (workload, mode, left_out[workload][mode]))
                    any_row = True
                continue
            c = cell(runs, workload, mode, metric)
            if c["verdict"] is None or (metric != "BENCH_TIME_MS" and c["cur_base"] is None):
                continue  # failures and gaps are shown once, in the first section
            any_row = True
            v = c["verdict"]
            if metric == "BENCH_TIME_MS" and c["native"] is None and c["cur_base"] is not None:
                v += native_note(runs, workload)
            lines.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                workload, mode, fmt_ms(c["native"]), fmt_ms(c["base"], c["base_spread"]),
                fmt_ms(c["cur"], c["cur_spread"]), fmt_ratio(c["base_native"]),
                fmt_ratio(c["cur_native"]), fmt_ratio(c["cur_base"]),
                " ".join("%.3f" % p for p in c["pairs"]) or "-", v))
            key = c["verdict"].split(" ")[0]
            label = "%s / %s%s" % (workload, mode,
                                   "" if metric == "BENCH_TIME_MS" else " (%s)" % metric)
            if not gates:
                continue
            if c["cur_base"] is None:
                tally["uncompared"] += key != "FAILED"
            else:
                tally["compared"] += 1
                tally["noise"] += key == "noise"
                if worst is None or c["cur_base"] > worst[0]:
                    worst = (c["cur_base"], label)
            if key == "REGRESSED":
                regressed.append("%s %.3f" % (label, c["cur_base"]))
            if key == "FAILED":
                failed.append(label)
        if any_row:
            sections.append("## %s\n\n%s\n" % (title, "\n".join(lines)))
    summary = summary_line(doc, tally, regressed, failed, worst)
    head = ["# Overhead regression check: current tree against the baseline", "", summary, ""]
    for key in ("baseline", "current", "gpu", "build"):
        if key in meta:
            head.append("- %s: %s" % (key, meta[key]))
    head.append("- rounds: %d of %s planned, round-robin (each round: native, then per mode "
                "the baseline and current builds back to back, which first alternating)%s"
                % (doc.get("rounds_done", 0), meta.get("rounds_planned", "?"),
                   "; " + doc["stopped"] if doc.get("stopped") else ""))
    if "torch_steps" in meta:
        head.append("- PyTorch step: %s timed steps after %s warm-up; tiny launches: %s" % (
            meta["torch_steps"], meta.get("torch_warmup", "?"), meta.get("tiny_launches", "?")))
    head.append("- medians over the rounds, ± half the rounds' range; verdict: REGRESSED when "
                "current/baseline > %.2f by more than the noise (half the range of the per-round "
                "ratios), noise when above %.2f within it" % (LIMIT, LIMIT))
    for note in doc.get("notes", []):
        head.append("- note: %s" % note)
    text = "\n".join(head) + "\n\n" + "\n".join(sections)
    status = 1 if regressed or failed else (0 if tally["compared"] else 2)
    return text, status


def summary_line(doc, tally, regressed, failed, worst):
    if not doc["meta"].get("baseline_build", True):
        return ("**No baseline build: nothing compared** (the current build measured against "
                "native only).")
    if tally["compared"] == 0 and not failed:
        return "**Nothing was compared** (no combination ran under both builds)."
    tail = "%d comparisons over %d round(s)" % (tally["compared"], doc.get("rounds_done", 0))
    if worst:
        tail += "; worst current/baseline %.3f (%s)" % worst
    if tally["noise"]:
        tail += "; %d above %.2f within the rounds' noise" % (tally["noise"], LIMIT)
    if tally["uncompared"]:
        tail += "; %d not compared (see the table)" % tally["uncompared"]
    if regressed or failed:
        parts = []
        if regressed:
            parts.append("REGRESSED: %s" % ", ".join(regressed))
        if failed:
            parts.append("FAILED under the current build: %s" % ", ".join(failed))
        return "**%s** (%s)." % ("; ".join(parts), tail)
    return "**No measured overhead regresses by more than %d%%** (%s)." % (
        round((LIMIT - 1) * 100), tail)


# ---- self-test on made-up runs ---------------------------------------------------------------

def _run(rnd, workload, mode, build, ms, status="ok", cpu=None, wall=1000.0):
    metrics = {} if ms is None else {"BENCH_TIME_MS": ms}
    if cpu is not None:
        metrics["BENCH_THREAD_CPU_MS"] = cpu
    r = {"round": rnd, "workload": workload, "mode": mode, "build": build, "status": status,
         "wall_ms": wall, "metrics": metrics if status == "ok" else {}}
    return r


def _fake_doc():
    runs = []
    for rnd in (1, 2, 3):
        runs.append(_run(rnd, "vecadd", None, "native", 0.240))
        # steady and equal: ok
        runs.append(_run(rnd, "vecadd", "run", "baseline", 0.242))
        runs.append(_run(rnd, "vecadd", "run", "current", 0.243))
        # 6% slower in every round: REGRESSED
        runs.append(_run(rnd, "vecadd", "memcheck", "baseline", 1.00 + 0.01 * rnd))
        runs.append(_run(rnd, "vecadd", "memcheck", "current", 1.06 + 0.01 * rnd))
        # 5% slower by the medians but the rounds disagree widely: noise
        runs.append(_run(rnd, "vecadd", "profile", "baseline", [1.0, 1.0, 1.0][rnd - 1]))
        runs.append(_run(rnd, "vecadd", "profile", "current", [0.90, 1.05, 1.30][rnd - 1]))
        # 10% faster, steadily: faster
        runs.append(_run(rnd, "vecadd", "streamcheck", "baseline", 2.0))
        runs.append(_run(rnd, "vecadd", "streamcheck", "current", 1.8))
        # the PyTorch step: wall ok, thread CPU regressed
        runs.append(_run(rnd, "transformer_step", None, "native", 10.0, cpu=5.0))
        runs.append(_run(rnd, "transformer_step", "run", "baseline", 10.4, cpu=5.2))
        runs.append(_run(rnd, "transformer_step", "run", "current", 10.5, cpu=5.6))
    # the current build fails where the baseline runs
    runs.append(_run(1, "reduce", None, "native", 0.11))
    runs.append(_run(1, "reduce", "memcheck --mode full", "baseline", 3.3))
    runs.append(_run(1, "reduce", "memcheck --mode full", "current", None, status="exit 1"))
    # the baseline fails, the current build runs
    runs.append(_run(1, "reduce", "streamcheck", "baseline", None, status="timeout"))
    runs.append(_run(1, "reduce", "streamcheck", "current", 0.2))
    meta = {"baseline": "665337a", "current": "working tree", "rounds_planned": 3,
            "torch_steps": 60, "torch_warmup": 5, "tiny_launches": 10000,
            "modes": ["run", "memcheck", "memcheck --mode full", "streamcheck", "profile"],
            "left_out": {"transformer_step": {"memcheck --mode full": "too slow"}},
            "baseline_build": True}
    return {"meta": meta, "notes": [], "runs": runs, "rounds_done": 3, "stopped": None}


def _row(text, section, workload, mode):
    part = text.split("## " + section, 1)[1].split("\n## ", 1)[0]
    for line in part.splitlines():
        cols = [c.strip() for c in line.strip("|").split("|")]
        if len(cols) >= 2 and cols[0] == workload and cols[1] == mode:
            return cols
    raise AssertionError("no row %s / %s in section %s" % (workload, mode, section))


def selftest():
    checks = 0

    def check(cond, what):
        nonlocal checks
        checks += 1
        if not cond:
            raise AssertionError(what)

    check(verdict(1.02, [1.0, 1.04])[0] == "ok", "ratio at most 1.03 is ok")
    check(verdict(1.05, [1.04, 1.06])[0] == "REGRESSED", "steady 5% is REGRESSED")
    check(verdict(1.05, [0.95, 1.20])[0] == "noise", "5% within a wide spread is noise")
    check(verdict(1.05, [1.05])[0] == "REGRESSED (1 round)", "one round: the ratio decides")
    check(verdict(0.90, [0.89, 0.91])[0] == "faster", "steady -10% is faster")
    check(verdict(0.96, [0.85, 1.05])[0] == "ok", "-4% within noise is ok")
    check(abs(spread([1.0, 1.1, 1.2]) - 0.1 / 1.1) < 1e-12, "spread is half range over median")

    text, status = build_table(_fake_doc())
    main = "Per-iteration time"
    check(_row(text, main, "vecadd", "run")[-1] == "ok", "equal times: ok")
    row = _row(text, main, "vecadd", "memcheck")
    check(row[-1] == "REGRESSED", "steady +6%%: REGRESSED, got %r" % row[-1])
    check(row[7] == "%.3f" % (1.08 / 1.02), "current/baseline of medians, got %r" % row[7])
    check(row[8] == "1.059 1.059 1.058", "per-round ratios, got %r" % row[8])
    check(row[2] == "0.2400" and row[3] == "1.020 ±1.0%", "native and spread, got %r" % row[2:4])
    check(_row(text, main, "vecadd", "profile")[-1] == "noise", "wide rounds: noise")
    check(_row(text, main, "vecadd", "streamcheck")[-1] == "faster", "steady -10%: faster")
    check(_row(text, main, "reduce", "memcheck --mode full")[-1] == "FAILED (current: exit 1)",
          "current fails where baseline ran")
    check(_row(text, main, "reduce", "streamcheck")[-1] == "no baseline (timeout)",
          "baseline timed out")
    check(_row(text, main, "transformer_step", "run")[-1] == "ok", "step wall time ok")
    check(_row(text, main, "transformer_step", "memcheck --mode full")[-1] == "left out: too slow",
          "left-out combination shown with its reason")
    cpu = _row(text, "Launching thread", "transformer_step", "run")
    check(cpu[-1] == "REGRESSED", "thread CPU +7.7%% steady: REGRESSED, got %r" % cpu[-1])
    check("vecadd" not in text.split("## Launching thread", 1)[1].split("\n## ", 1)[0],
          "rows without the metric are left out of its section")
    check("## Whole-process wall time" in text, "wall section present")
    summary = text.splitlines()[2]
    check(summary.startswith("**REGRESSED: vecadd / memcheck 1.059"), "summary, got %r" % summary)
    check("transformer_step / run (BENCH_THREAD_CPU_MS)" in summary, "summary names CPU regression")
    check("FAILED under the current build: reduce / memcheck --mode full" in summary,
          "summary names the failure")
    check(status == 1, "exit status 1 on a regression")

    clean = _fake_doc()
    clean["runs"] = [r for r in clean["runs"]
                     if r["mode"] not in ("memcheck", "memcheck --mode full")
                     and r["workload"] != "transformer_step"]
    text, status = build_table(clean)
    summary = text.splitlines()[2]
    check(status == 0, "no regression: exit 0")
    check(summary.startswith("**No measured overhead regresses by more than 3%**"),
          "clean summary, got %r" % summary)
    check("1 above 1.03 within the rounds' noise" in summary, "noise counted, got %r" % summary)

    broken = _fake_doc()
    broken["runs"] = [_run(1, "vecadd", None, "native", None, status="exit 1"),
                      _run(1, "vecadd", "run", "baseline", None, status="exit 1"),
                      _run(1, "vecadd", "run", "current", None, status="exit 1")]
    broken["meta"]["planned"] = [["vecadd", "run"], ["vecadd", "profile"]]
    text, status = build_table(broken)
    check(_row(text, main, "vecadd", "run")[-1] ==
          "not measured: exit 1 (native, baseline, current)", "one failure shown once")
    check(_row(text, main, "vecadd", "profile")[-1] == "not run (time budget)",
          "planned but not run")
    check(status == 2 and "**Nothing was compared**" in text, "all failed: nothing compared")

    empty = {"meta": {"baseline_build": True}, "notes": [], "runs": [], "rounds_done": 0}
    text, status = build_table(empty)
    check(text.splitlines()[2].startswith("**Nothing was compared**") and status == 2,
          "empty input: nothing compared, exit 2")
    check(fmt_ms(0.0046) == "0.004600" and fmt_ms(12.734) == "12.734" and fmt_ms(2684.2) ==
          "2684.2", "ms formatting")
    print("regression_table selftest: %d checks passed" % checks)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("results", nargs="?", help="JSON written by regression_runs.py")
    ap.add_argument("--out", help="also write the table to this file")
    ap.add_argument("--selftest", action="store_true", help="check the table on made-up runs")
    args = ap.parse_args()
    if args.selftest:
        return selftest()
    if not args.results:
        ap.error("a results file is needed (or --selftest)")
    try:
        with open(args.results, encoding="utf-8") as fh:
            doc = json.load(fh)
        if not isinstance(doc, dict) or not isinstance(doc.get("runs"), list):
            raise ValueError("no 'runs' list")
        doc.setdefault("meta", {})
        doc.setdefault("notes", [])
    except (OSError, ValueError) as err:
        print("regression_table.py: %s: %s" % (args.results, err), file=sys.stderr)
        return 2
    text, status = build_table(doc)
    print(text, end="")
    if args.out:
        with open(args.out, "w", encoding="utf-8") as fh:
            fh.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main())
