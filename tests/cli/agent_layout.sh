#!/usr/bin/env bash
# The agent's shape holds (docs/architecture.md): every environment knob the agent reads is in
# its one table (src/core/agent_knobs.inc) and documented in docs/agent.md; the agent core
# and backends never name a tool (tools reach them through their plug-ins, listed once in
# src/agent/tools/plugins.c); src/core includes nothing from src/tools or src/agent; no include
# cycle between the agent's folders.
source "$(dirname "$0")/data/common.bash"
A="$SOURCE_DIR/src/agent"

# 1. knobs: table <-> docs, and no variable read around the table
knobs="$(sed -n 's/^CC_KNOB([A-Z_]*, "\(CUCHECK_[A-Z_]*\)".*/\1/p' "$SOURCE_DIR/src/core/agent_knobs.inc")"
[ -n "$knobs" ] || fail "no knob found in agent_knobs.inc"
for k in $knobs; do
  grep -q "^| \`$k\` |" "$SOURCE_DIR/docs/agent.md" || fail "knob $k is not documented in docs/agent.md"
done
stray="$(grep -rn '"CUCHECK_[A-Z_]*"' "$A" --include=*.c --include=*.h | grep -v 'snprintf\|"CUCHECK_CUPTI=' )"
[ -z "$stray" ] || fail "agent reads a CUCHECK_ variable outside agent_knobs.inc: $stray"
documented="$(sed -n '/^## Environment knobs/,/^## /s/^| `\(CUCHECK_[A-Z_]*\)` |.*/\1/p' "$SOURCE_DIR/docs/agent.md")"
for d in $documented; do
  echo "$knobs" | grep -qx "$d" || fail "docs/agent.md documents $d, which agent_knobs.inc does not have"
done

# 2. the core and the backends never name a tool
named="$(grep -rnE '"(run|memcheck|streamcheck|profile|racecheck|initcheck|synccheck)"' \
         "$A/core" "$A/backends" "$A/host" "$A/instr" --include=*.c --include=*.h)"
[ -z "$named" ] || fail "the agent core names a tool: $named"
upward="$(grep -rn '#include "agent/tools/' "$A/core" "$A/backends" "$A/host" "$A/instr")"
[ -z "$upward" ] || fail "the agent core includes a tool's agent half: $upward"

# 3. layering of src/core
core_up="$(grep -rnE '#include "(tools|agent|cli)/' "$SOURCE_DIR/src/core")"
[ -z "$core_up" ] || fail "src/core includes a layer above it: $core_up"
grep -rq "cc_tool_find" "$SOURCE_DIR/src/core" && fail "src/core calls the tools registry (cc_tool_find)"

# 4. no include cycle between the agent's folders (folder graph from #include "agent/...")
cycle="$(cd "$A" && for f in $(find . -name '*.[ch]'); do
           from="$(dirname "${f#./}")"
           sed -n 's|^#include "agent/\(.*\)/[^/]*"|\1|p' "$f" | while read -r to; do
             [ "$to" != "$from" ] && echo "$from $to"
           done
         done | sort -u | tsort 2>&1 >/dev/null | head -3)"
[ -z "$cycle" ] || fail "include cycle between agent folders: $cycle"

[ "$FAILS" -eq 0 ] || exit 1
echo "agent layout: ok ($(echo "$knobs" | wc -l) knobs)"
