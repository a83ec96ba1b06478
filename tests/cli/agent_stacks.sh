#!/usr/bin/env bash
# agent_stacks.sh: host stack capture and symbolization without a GPU: cucheck_agent_stacktest
# unwinds its own stack and requires function names (and, with libdw, file:line of each call).
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR.
set -u
BIN="$3/src/agent/cucheck_agent_stacktest"
[ -x "$BIN" ] || { echo "skip: $BIN not built"; exit 77; }
"$BIN"
