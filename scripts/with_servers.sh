#!/usr/bin/env bash
# Runs a command against throwaway MariaDB and Redis servers on free loopback ports, with the
# SQUAWK_TEST_* variables that describe them plus SQUAWK_SOURCE_DIR and SQUAWK_BIN_DIR exported.
# The servers are stopped and their data removed however the command ends; its exit code is kept.
#
#   BUILD_DIR=build scripts/with_servers.sh COMMAND [ARGS...]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-build}
case "$build_dir" in /*) ;; *) build_dir=$root/$build_dir ;; esac

# Config overrides from a developer's shell (for example after `. var/demo.env`) must not reach the
# code under test: every SQUAWK_* variable goes but the tests' own switches (SQUAWK_E2E_KEEP).
while read -r name; do
    case "$name" in SQUAWK_E2E_*) ;; *) unset "$name" ;; esac
done < <(compgen -v SQUAWK_ || true)

servers_dir=$(mktemp -d "${TMPDIR:-/tmp}/squawk-servers.XXXXXX")
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
"$@" || status=$?
exit "$status"
