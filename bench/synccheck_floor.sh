#!/usr/bin/env bash
# synccheck's cost (the target is full <= 1.2x floor): bench/device_tool_floor.sh for synccheck;
# SY_FLOOR_TIMEOUT sets its FLOOR_TIMEOUT.
# Usage: synccheck_floor.sh CUCHECK ROUNDS OUT_DIR [WORKLOAD...]   (writes OUT_DIR/synccheck_floor.md)
FLOOR_TIMEOUT=${SY_FLOOR_TIMEOUT:-${FLOOR_TIMEOUT:-300}} exec bash "$(dirname "$0")/device_tool_floor.sh" synccheck "$@"
