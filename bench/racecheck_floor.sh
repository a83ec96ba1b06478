#!/usr/bin/env bash
# racecheck's cost (the target is full <= 1.5x floor): bench/device_tool_floor.sh for racecheck;
# RC_FLOOR_TIMEOUT sets its FLOOR_TIMEOUT.
# Usage: racecheck_floor.sh CUCHECK ROUNDS OUT_DIR [WORKLOAD...]   (writes OUT_DIR/racecheck_floor.md)
FLOOR_TIMEOUT=${RC_FLOOR_TIMEOUT:-${FLOOR_TIMEOUT:-300}} exec bash "$(dirname "$0")/device_tool_floor.sh" racecheck "$@"
