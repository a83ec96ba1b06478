#!/usr/bin/env bash
# doctor's agent checks without a GPU: the real agent (the Compute Sanitizer library it loads,
# the injection test: with no driver the verdict says exactly that libcuda.so.1 could not be
# loaded), an agent that does not exist and one the loader refuses (FAIL, naming why), another
# tools client named by CUDA_INJECTION64_PATH / LD_PRELOAD (WARN naming the tool), --no-agent,
# and the same in --json.
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when the agent was not built.
set -u
CUCHECK="$1"; BIN_DIR="$3"
[ -f "$BIN_DIR/src/agent/libcucheck_agent.so" ] || { echo "skip: agent not built"; exit 77; }
command -v python3 >/dev/null || { echo "skip: no python3"; exit 77; }
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
unset CUDA_INJECTION64_PATH NVTX_INJECTION64_PATH LD_PRELOAD CUCHECK_AGENT

# 1. the real agent
"$CUCHECK" doctor --no-search --json >"$tmp/real.json" || fail "doctor with the real agent failed"
python3 - "$tmp/real.json" <<'PY' || exit 1
import json, sys
d = json.load(open(sys.argv[1]))
a = d["agent"]
assert a["checked"] == 1 and a["path"].endswith("libcucheck_agent.so"), a
assert a["sanitizer"]["path"] and "libsanitizer-public.so" in a["sanitizer"]["path"], a
run = [t for t in a["tests"] if t["tool"] == "run"][0]
assert run["ran"] == 1 and run["agent_loaded"] == 1 and run["reports"] >= 1, run
assert run["preload_failed"] == 0 and run["conflict"] == 0, run
agent_v = [v for v in d["verdicts"] if v["topic"] == "agent"]
if not d["driver"]["loaded"]:
    assert run["no_driver"] == 1, run
    assert "no CUDA driver (libcuda.so.1) could be loaded" in run["message"], run
    assert any(v["level"] == "WARN" and "no CUDA driver (libcuda.so.1) could be loaded" in v["text"]
               for v in agent_v), agent_v
else:
    assert run["no_driver"] == 0, run
assert a["other_clients"] == [], a
PY
text="$("$CUCHECK" doctor --no-search)"
echo "$text" | grep -q "^Agent$" || fail "no Agent section"
echo "$text" | grep -q "Compute Sanitizer  /.*libsanitizer-public.so" || fail "no Sanitizer line"

# 2. no agent where CUCHECK_AGENT points
CUCHECK_AGENT="$tmp/none.so" "$CUCHECK" doctor --no-search >"$tmp/none.txt"
[ $? -eq 1 ] || fail "a missing agent must be a FAIL verdict (exit 1)"
grep -q "FAIL \[agent\] libcucheck_agent.so: CUCHECK_AGENT=$tmp/none.so: No such file" \
    "$tmp/none.txt" || fail "missing agent: $(grep agent "$tmp/none.txt")"

# 3. a file the loader refuses
printf 'not an ELF file, long enough to be read as one by the loader....\n' >"$tmp/libbroken.so"
CUCHECK_AGENT="$tmp/libbroken.so" "$CUCHECK" doctor --no-search >"$tmp/broken.txt"
[ $? -eq 1 ] || fail "a refused agent must be a FAIL verdict"
grep -q "FAIL \[agent\] $tmp/libbroken.so: the dynamic loader refused the agent: .*cannot be preloaded" \
    "$tmp/broken.txt" || fail "refused agent: $(grep agent "$tmp/broken.txt")"

# 4. other tools clients in the environment (fake paths: only their names are read)
CUDA_INJECTION64_PATH=/opt/nvidia/nsight-systems/2025.1/libToolsInjection64.so \
    "$CUCHECK" doctor --no-search >"$tmp/nsys.txt"
grep -q "WARN \[agent\] CUDA_INJECTION64_PATH: names Nsight Systems" "$tmp/nsys.txt" ||
    fail "CUDA_INJECTION64_PATH client: $(grep agent "$tmp/nsys.txt")"
NVTX_INJECTION64_PATH="$tmp/libmytool.so" "$CUCHECK" doctor --no-search --json >"$tmp/nvtx.json"
python3 - "$tmp/nvtx.json" <<'PY' || exit 1
import json, sys
c = json.load(open(sys.argv[1]))["agent"]["other_clients"]
assert len(c) == 1 and c[0]["variable"] == "NVTX_INJECTION64_PATH", c
PY

# 5. --no-agent skips it all
"$CUCHECK" doctor --no-search --no-agent | grep -q "not checked (--no-agent)" || fail "--no-agent"
echo "ok"
