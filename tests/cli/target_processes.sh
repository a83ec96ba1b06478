#!/usr/bin/env bash
# --target-processes (compute-sanitizer's option): with `all` (the default) every process of the
# program that loads the agent writes a report; with `application-only` only the process cucheck
# started does, the report says so, and the children run to the end (a shell that starts more
# programs: 3 or more process reports, then 1). Also through a second level (a child's child) and
# with the variable inherited from an outer cucheck (cucheck removes agent knobs it did not set).
# Args: CUCHECK_BIN SOURCE_DIR BINARY_DIR. Exit 77 when the agent was not built.
set -u
CUCHECK="$1"; BIN_DIR="$3"
[ -f "$BIN_DIR/src/agent/libcucheck_agent.so" ] || { echo "skip: agent not built"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
work="$(mktemp -d "${TMPDIR:-/tmp}/cucheck-target.XXXXXX")"
trap 'rm -rf "$work"' EXIT

prog=(sh -c 'sh -c "/bin/true; touch '"$work"'/grandchild"; touch '"$work"'/child')
# reports (the number of processes depends on how the shell forks: 3 or more)
reports() { sed -n 's/.* in \([0-9]*\) process reports*$/\1/p' <<<"$1" | tail -1; }
out="$("$CUCHECK" run -- "${prog[@]}" 2>&1)" || fail "all: exit $?: $out"
n="$(reports "$out")"
[ -n "$n" ] && [ "$n" -ge 3 ] || fail "all: expected 3 or more process reports: $out"
rm -f "$work/child" "$work/grandchild"

out="$("$CUCHECK" --target-processes application-only run -- "${prog[@]}" 2>&1)" ||
    fail "application-only: exit $?: $out"
echo "$out" | grep -q "in 1 process report$" || fail "application-only: expected 1 report: $out"
echo "$out" | grep -q "CUCHECK_TARGET_PARENT=.*application-only" ||
    fail "application-only: the report does not say so: $out"
[ -e "$work/child" ] && [ -e "$work/grandchild" ] || fail "application-only: the children did not run"

# A value inherited from elsewhere is not trusted: cucheck sets it only when asked.
out="$(CUCHECK_TARGET_PARENT=1 "$CUCHECK" run -- "${prog[@]}" 2>&1)" || fail "inherited: exit $?"
[ "$(reports "$out")" = "$n" ] || fail "inherited value obeyed: $out"

out="$("$CUCHECK" --target-processes some run -- /bin/true 2>&1)"
[ $? -eq 2 ] || fail "a bad value must exit 2: $out"
echo "$out" | grep -q "does not accept 'some'" || fail "bad value message: $out"
echo "ok"
