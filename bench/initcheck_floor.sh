#!/usr/bin/env bash
# initcheck's cost (the target is initcheck <= 0.5x compute-sanitizer initcheck): bench/device_tool_floor.sh for initcheck;
# IC_FLOOR_TIMEOUT sets its FLOOR_TIMEOUT.
# Usage: initcheck_floor.sh CUCHECK ROUNDS OUT_DIR [WORKLOAD...]   (writes OUT_DIR/initcheck_floor.md)
FLOOR_TIMEOUT=${IC_FLOOR_TIMEOUT:-${FLOOR_TIMEOUT:-300}} exec bash "$(dirname "$0")/device_tool_floor.sh" initcheck "$@"
