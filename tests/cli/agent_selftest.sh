#!/usr/bin/env bash
# agent_selftest.sh: the device patch fatbin is embedded in the agent and is well formed: an
# uncompressed sm_90 ELF cubin defining every patch function, plus PTX (cucheck_agent_selftest
# checks both the image it links and the one inside libcucheck_agent.so).
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when the agent or the patches were not built.
set -u
BINARY_DIR="$3"
AGENT="$BINARY_DIR/src/agent/libcucheck_agent.so"
SELFTEST="$BINARY_DIR/src/agent/cucheck_agent_selftest"
[ -f "$AGENT" ] || { echo "skip: $AGENT not built"; exit 77; }
[ -x "$SELFTEST" ] || { echo "FAIL: $SELFTEST missing although the agent was built"; exit 1; }
"$SELFTEST"
rc=$?
[ $rc -eq 0 ] || exit $rc # 77 when built without patches
"$SELFTEST" "$AGENT" || { echo "FAIL: the agent does not embed the patch fatbin"; exit 1; }
# The agent exports its injection entry point and nothing of cucheck's internals.
if command -v nm >/dev/null 2>&1; then
    exports="$(nm -D --defined-only "$AGENT" | awk '{print $3}' | sort -u)"
    echo "$exports" | grep -qx InitializeInjection || { echo "FAIL: InitializeInjection not exported"; exit 1; }
    if echo "$exports" | grep -q '^cc_'; then
        echo "FAIL: the agent exports internal symbols:"; echo "$exports" | grep '^cc_' | head; exit 1
    fi
fi
# No link to the CUDA driver or runtime: the agent must load where there is no GPU.
if command -v readelf >/dev/null 2>&1 &&
   readelf -d "$AGENT" | grep NEEDED | grep -E -q 'libcuda\.so|libcudart'; then
    echo "FAIL: the agent links libcuda/libcudart"; exit 1
fi
echo "ok"
