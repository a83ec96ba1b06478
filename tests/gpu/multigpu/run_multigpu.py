#!/usr/bin/env python3
"""Several GPUs and several ranks (W2-8): builds mg_devices.cu and mg_rank_oob.cu with nvcc
-lineinfo, runs every case of CASES below natively and under `cucheck --format json --output
FILE TOOL`, and judges each run with tests/gpu/verdict.py (cucheck exits with the program's
native status, collected a report from every rank, the tool's note says what it checked, and
the findings are exactly the case's: a buggy case's finding with its kernel and the other side
of a race, nothing in a clean twin). Per-rank cases also check that the merged findings name the
rank that found them; the profile case checks that the ranks' timelines were merged into one
trace with a process per rank. Cases that need more GPUs than the machine has, or PyTorch with
NCCL, are SKIPPED with the reason (a torchrun case runs with as many ranks as there are GPUs, up
to 2, where it says so). Prints a markdown table. Exit 0 when every case that ran passed, 1 on a
failure, 77 without a GPU or nvcc, 2 on bad use. NCCL_NVLS_ENABLE=0 in every run.

usage: run_multigpu.py --cucheck BIN [--build-dir DIR] [--python PY] [--only NAME]
Standard library only."""
import argparse
import glob
import gzip
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GPU = os.path.dirname(HERE)
sys.path.insert(0, GPU)
import findings  # noqa: E402
import run_gpu_tests  # noqa: E402
import verdict  # noqa: E402

ENV = {"NCCL_NVLS_ENABLE": "0"}
ALL_TOOLS = ("run", "memcheck", "streamcheck", "racecheck", "synccheck", "initcheck", "profile")


def case(name, prog, args, tools, expect=None, gpus=1, ranks=0, rank_of=None):
    """One case: `prog` (a program of this folder: .cu built here, .py run with --python) with
    `args`, under each of `tools`; `expect` a findings.Expect spec string (None: clean); `gpus`
    the GPUs it needs; `ranks` > 0: started by torchrun with that many ranks ('gpus': one per
    rank); `rank_of`: the rank the finding must name."""
    return {"name": name, "prog": prog, "args": list(args), "tools": tools, "expect": expect,
            "gpus": gpus, "ranks": ranks, "rank_of": rank_of}


CASES = [
    case("peer-read-ok", "mg_devices", ["peer-read-ok"], ALL_TOOLS, gpus=2),
    case("peer-read-oob", "mg_devices", ["peer-read-oob"], ("memcheck",),
         "kind=invalid-global-read;kernel=peer_gather;at=mg_devices.cu:24", gpus=2),
    case("xdev-race", "mg_devices", ["xdev-race"], ("streamcheck",),
         "kind=race;kernel=consume_peer;other=produce", gpus=2),
    case("xdev-ok", "mg_devices", ["xdev-ok"], ALL_TOOLS, gpus=2),
    case("peercopy-race", "mg_devices", ["peercopy-race"], ("streamcheck",),
         "kind=race;other=produce", gpus=2),
    case("peercopy-ok", "mg_devices", ["peercopy-ok"], ("streamcheck", "memcheck"), gpus=2),
    # two ranks on any number of GPUs (they share GPU 0 on a one-GPU machine; no NCCL)
    case("rank1-oob", "mg_rank_oob", ["1"], ("memcheck",),
         "kind=invalid-global-read;kernel=scale_rank;at=mg_rank_oob.cu:17", ranks=2, rank_of=1),
    case("ranks-clean", "mg_rank_oob", ["-1"], ("memcheck", "streamcheck", "profile"), ranks=2),
    # NCCL: one GPU per rank; as many ranks as GPUs, up to 2
    case("ddp-clean", "ddp_streams.py", ["clean"], ("streamcheck", "memcheck", "run"), ranks=-2),
    case("ddp-side-stream", "ddp_streams.py", ["side-stream"], ("streamcheck",),
         "kind=race;kernel=ncclAllReduce;other=FillFunctor", ranks=-2),
    case("ddp-async-nowait", "ddp_streams.py", ["async-nowait"], ("streamcheck",),
         "kind=race;kernel=MulFunctor;other=ncclAllReduce", ranks=-2),
]


def gpu_count():
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    return sum(1 for line in out.stdout.splitlines() if line.startswith("GPU "))


def torch_nccl(python):
    """(ok, why not)."""
    code, out, err = run_gpu_tests.run(
        [python, "-c", "import torch, torch.distributed as d; "
         "assert torch.cuda.is_available(), 'no CUDA in torch'; "
         "assert d.is_nccl_available(), 'torch.distributed has no NCCL'; print('ok')"],
        timeout=120)
    if code == 0 and "ok" in out:
        return True, ""
    return False, (err.strip().splitlines() or ["no PyTorch"])[-1][:120]


def command(c, bin_dir, python, ranks):
    if c["prog"].endswith(".py"):
        target = [os.path.join(HERE, c["prog"])]
    else:
        target = [os.path.join(bin_dir, c["prog"])]
    if not ranks:
        return (target if not c["prog"].endswith(".py") else [python] + target) + c["args"]
    launcher = [python, "-m", "torch.distributed.run", "--standalone",
                "--nproc_per_node=%d" % ranks]
    if not c["prog"].endswith(".py"):
        launcher.append("--no-python")
    return launcher + target + c["args"]


def ranks_of(finding):
    """The ranks a merged finding names (its "ranks" list, or its own "rank")."""
    got = finding.get("ranks")
    if isinstance(got, list):
        return {r for r in got if isinstance(r, int)}
    return {finding["rank"]} if isinstance(finding.get("rank"), int) else set()


def merged_trace_ranks(path):
    """The ranks of the processes of a merged profile trace (its "cucheck" header's inputs)."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as fh:
        doc = json.load(fh)
    ranks = set()
    for ev in doc.get("traceEvents", []) if isinstance(doc, dict) else doc:
        if ev.get("ph") == "M" and ev.get("name") == "process_name":
            label = str(ev.get("args", {}).get("name", ""))
            if label.startswith("rank "):
                ranks.add(int(label.split()[1].rstrip(":")))
    return ranks


def judge(c, tool, ranks, result, report, trace):
    code, out, err, timed_out = result
    expects = [findings.Expect.from_spec(c["expect"])] if c["expect"] else []
    processes = max(ranks, 1)
    ok, notes = verdict.judge(code, err, report, tool, expects, 0, timed_out=timed_out,
                              processes=processes)
    if ok and c["rank_of"] is not None:
        records, _ = verdict.read_report(report)
        hits = findings.serious(verdict.report_findings(records))
        named = set().union(*(ranks_of(f) for f in hits)) if hits else set()
        if named != {c["rank_of"]}:
            ok = False
            notes.append("the finding names ranks %s, expected {%d}" % (sorted(named),
                                                                      c["rank_of"]))
    if ok and tool == "profile" and ranks > 1:
        try:
            got = merged_trace_ranks(trace)
        except (OSError, ValueError) as exc:
            got, ok = set(), False
            notes.append("no merged trace %s: %s" % (trace, exc))
        if ok and got != set(range(ranks)):
            ok = False
            notes.append("the merged trace has ranks %s, expected 0..%d" % (sorted(got),
                                                                           ranks - 1))
    return ok, notes


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cucheck", required=True)
    ap.add_argument("--build-dir", default=os.path.join(HERE, "build"))
    ap.add_argument("--python", default=sys.executable or "python3")
    ap.add_argument("--timeout", type=int, default=300, help="seconds one cucheck run may take")
    ap.add_argument("--only", action="append", help="run only this case (repeatable)")
    args = ap.parse_args(argv)
    ngpu = gpu_count()
    if ngpu < 1:
        print("SKIPPED: no GPU")
        return 77
    nvcc, status = run_gpu_tests.build_tools(args.cucheck, "multi-GPU test programs")
    if not nvcc:
        return status
    bin_dir = os.path.join(args.build_dir, "bin")
    sources = sorted(glob.glob(os.path.join(HERE, "*.cu")))
    errors = run_gpu_tests.build(nvcc, sources, bin_dir, run_gpu_tests.gencode_flags())
    nccl_ok, nccl_why = torch_nccl(args.python)
    rows, failures, ran = [], [], 0
    for c in CASES:
        if args.only and c["name"] not in args.only:
            continue
        ranks, why = c["ranks"], ""
        if ranks < 0:  # NCCL: one GPU per rank
            ranks = min(ngpu, -ranks)
            if not nccl_ok:
                why = nccl_why
        elif ranks > 0 and not nccl_ok:  # torchrun without NCCL still needs torch
            why = nccl_why
        if c["gpus"] > ngpu:
            why = "needs %d GPUs, this machine has %d" % (c["gpus"], ngpu)
        if not c["prog"].endswith(".py") and errors.get(c["prog"]):
            failures.append("%s: build failed: %s" % (c["name"], errors[c["prog"]][:300]))
            continue
        if why:
            rows.append((c["name"], ",".join(c["tools"]), "-", "SKIPPED", "-", why))
            continue
        cmd = command(c, bin_dir, args.python, ranks)
        t0 = time.time()
        native = run_gpu_tests.run_timed(cmd, env=ENV, timeout=args.timeout)
        native_s = time.time() - t0
        if native[0] != 0:
            failures.append("%s: exits %d natively: %s" % (c["name"], native[0],
                                                         (native[2] or native[1])[-300:]))
            rows.append((c["name"], "native", "-", "FAIL", "%.1f" % native_s,
                         "native exit %d" % native[0]))
            continue
        for tool in c["tools"]:
            stem = os.path.join(args.build_dir, "%s.%s" % (c["name"], tool))
            report, trace = stem + ".json", stem + ".trace.json"
            for old in (report, trace):
                if os.path.exists(old):
                    os.remove(old)
            opts = ["--trace", trace] if tool == "profile" else []
            full = [args.cucheck, "--format", "json", "--output", report, tool] + opts + \
                ["--"] + cmd
            sys.stderr.write("run: %s under %s (%d rank(s))\n" % (c["name"], tool, ranks))
            sys.stderr.flush()
            t0 = time.time()
            result = run_gpu_tests.run_timed(full, env=ENV, timeout=args.timeout)
            secs = time.time() - t0
            with open(stem + ".log", "w", encoding="utf-8") as fh:
                fh.write(result[1] + result[2])
            ok, notes = judge(c, tool, ranks, result, report, trace)
            ran += 1
            records, _ = verdict.read_report(report)
            found = "; ".join(findings.summarize(f) for f in
                              findings.serious(verdict.report_findings(records)))
            rows.append((c["name"] + (" x%d ranks" % ranks if ranks else ""), tool,
                         c["expect"] or "none", "PASS" if ok else "FAIL",
                         "%.1f (native %.1f)" % (secs, native_s), found or "-"))
            if not ok:
                failures.append("%s [%s]: %s (log %s.log)" % (c["name"], tool, "; ".join(notes),
                                                             stem))
    print("| case | tool | expected | verdict | seconds | found |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| %s |" % " | ".join(str(x).replace("|", "/") for x in r))
    print()
    print("%d run(s) on %d GPU(s), %d failed" % (ran, ngpu, len(failures)))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
