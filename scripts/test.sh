#!/usr/bin/env bash
# Runs every test through CTest against throwaway MariaDB and Redis servers on free loopback ports.
# The servers are stopped and their data removed however the tests end; ctest's exit code is kept.
#
#   BUILD_DIR=build scripts/test.sh [extra ctest arguments, e.g. -R unit]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-build}
case "$build_dir" in /*) ;; *) build_dir=$root/$build_dir ;; esac

# Config overrides from a developer's shell (for example after `. var/demo.env`) must not reach the
# code under test; switches meant for the tests themselves (SQUAWK_E2E_KEEP) stay.
config_override='^SQUAWK_(CONFIG|MIGRATIONS_DIR|TIME_SCALE|(API|MYSQL|REDIS|JOBS|WORKERS|SCHEDULER|SECURITY|MEDIA|SPEECH|LOG|BILLING|RATE_LIMITS|REQUEST_LOG|IDEMPOTENCY)_.*)$'
while read -r name; do
    if [[ $name =~ $config_override ]]; then unset "$name"; fi
done < <(compgen -v SQUAWK_ || true)

servers_dir=$(mktemp -d "${TMPDIR:-/tmp}/squawk-test.XXXXXX")
log=$servers_dir/ctest.log
cleanup() {
    "$root/scripts/servers.sh" stop "$servers_dir" || true
    rm -rf "$servers_dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

"$root/scripts/servers.sh" start "$servers_dir"
set -a
# shellcheck source=/dev/null
. "$servers_dir/servers.env"
set +a
export SQUAWK_SOURCE_DIR=$root
export SQUAWK_BIN_DIR=$build_dir/bin

status=0
ctest --test-dir "$build_dir" --output-on-failure --no-tests=error -j2 "$@" | tee "$log" || status=${PIPESTATUS[0]}

summary=$(grep -E 'tests passed|No tests were found' "$log" | tail -n 1 || true)
if [ "$status" -eq 0 ]; then
    echo "== test.sh: PASSED - ${summary:-ctest reported nothing} (build dir: $build_dir)"
else
    echo "== test.sh: FAILED (ctest exit $status) - ${summary:-no summary} (build dir: $build_dir)"
fi
exit "$status"
