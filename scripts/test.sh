#!/usr/bin/env bash
# Runs every test through CTest against throwaway MariaDB and Redis servers on free loopback ports
# (scripts/with_servers.sh). ctest's exit code is kept.
#
#   BUILD_DIR=build scripts/test.sh [extra ctest arguments, e.g. -R unit]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-build}
case "$build_dir" in /*) ;; *) build_dir=$root/$build_dir ;; esac
export BUILD_DIR=$build_dir

log=$(mktemp "${TMPDIR:-/tmp}/squawk-ctest.XXXXXX")
trap 'rm -f "$log"' EXIT

status=0
# The resource spec gives the servers two slots: the tests that share them run two at a time.
"$root/scripts/with_servers.sh" ctest --test-dir "$build_dir" --output-on-failure --no-tests=error \
    -j2 --resource-spec-file "$root/tests/resources.json" "$@" | tee "$log" ||
    status=${PIPESTATUS[0]}

summary=$(grep -E 'tests passed|No tests were found' "$log" | tail -n 1 || true)
if [ "$status" -eq 0 ]; then
    echo "== test.sh: PASSED - ${summary:-ctest reported nothing} (build dir: $build_dir)"
else
    echo "== test.sh: FAILED (ctest exit $status) - ${summary:-no summary} (build dir: $build_dir)"
fi
exit "$status"
