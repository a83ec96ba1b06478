#!/usr/bin/env bash
# Checks tests/scenarios/run.sh itself: it must fail on scenarios that cannot be what they claim.
#   - a scenario with a typo in an event line: the replay stops there with exit 1; a clean twin
#     (#expect-none) whose race comes after the typo would pass by replaying nothing;
#   - a directive with a typo (#expect-absnt): it must not silently become a comment;
#   - the same scenarios without the typos: the racy one passes with its #expect line;
#   - #expect-text / #expect-text-absent read the text report; #expect-absent looks past the
#     "kernel_mangled" fields only.
# Usage: selftest.sh CUCHECK_BIN   (exit 0 when every check passes)
set -u
cucheck="${1:?usage: selftest.sh CUCHECK_BIN}"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/cucheck-scn-selftest.XXXXXX")"
trap 'rm -rf "$work"' EXIT
fail=0

race_events() { # $1: the second stream_create line (a typo there hides the race)
  cat <<SCN
stream_create stream=s1 flags=0x1
$1
alloc mem_kind=device address=buf size=4096
launch name=producer grid=1 block=256 stream=s1 launch_id=1
access launch_id=1 address=buf size=4096 flags=0x2
launch name=consumer grid=1 block=256 stream=s2 launch_id=2
access launch_id=2 address=buf size=4096 flags=0x1
SCN
}
# case NAME WANT (pass|fail): runs run.sh over $work/NAME (written by the caller)
case_is() {
  local name=$1 want=$2
  bash "$here/run.sh" "$cucheck" "$work/$name" > "$work/$name.out" 2>&1
  local rc=$? got=pass
  [ $rc -eq 0 ] || got=fail
  if [ "$got" = "$want" ]; then
    echo "ok: $name: run.sh says $got"
  else
    echo "FAIL: $name: run.sh says $got, expected $want"; sed 's/^/    /' "$work/$name.out"
    fail=1
  fi
}
mk() { mkdir -p "$work/$1/streamcheck"; cat > "$work/$1/streamcheck/$2.scn"; }

{ echo "#expect race producer && consumer"; race_events "stream_create stream=s2 flags=0x1"; } |
  mk control racy
case_is control pass

{ echo "#expect-none"; race_events "stream_crate stream=s2 flags=0x1"; } | mk typo_event twin_ok
case_is typo_event fail
grep -q "replay exited 1" "$work/typo_event.out" ||
  { echo "FAIL: typo_event: run.sh does not say the replay stopped (exit 1)"; fail=1; }

{ echo "#expect race producer"; echo "#expect-absnt consumer";
  race_events "stream_create stream=s2 flags=0x1"; } | mk typo_directive racy
case_is typo_directive fail
grep -q "not a directive" "$work/typo_directive.out" ||
  { echo "FAIL: typo_directive: check_expect.py does not name the bad directive"; fail=1; }

{ echo "# expect race producer"; race_events "stream_create stream=s2 flags=0x1"; } |
  mk spaced_directive racy
case_is spaced_directive fail

# The text report is checked: a text it lacks, or one it must not have, fails the scenario.
{ echo "#expect race producer"; echo "#expect-text no such words";
  race_events "stream_create stream=s2 flags=0x1"; } | mk text_missing racy
case_is text_missing fail
{ echo "#expect race producer"; echo "#expect-text-absent consumer";
  race_events "stream_create stream=s2 flags=0x1"; } | mk text_present racy
case_is text_present fail

# A mangled kernel name may stand in "kernel_mangled" only: #expect-absent looks past that field,
# not past the rest of the finding.
mangled_events() {
  race_events "stream_create stream=s2 flags=0x1" | sed 's/name=producer/name=_Z8producerv/'
}
{ echo "#expect race producer() && \"kernel_mangled\":\"_Z8producerv\""; echo "#expect-absent _Z8producerv";
  mangled_events; } | mk mangled_field racy
case_is mangled_field pass
{ echo "#expect race producer()"; echo "#expect-absent producer()"; mangled_events; } |
  mk mangled_shown racy
case_is mangled_shown fail

[ $fail -eq 0 ] && echo "scenarios selftest: PASS" || echo "scenarios selftest: FAIL"
exit $fail
