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
# code under test; switches meant for the tests themselves (SQUAWK_E2E_KEEP) stay.
config_override='^SQUAWK_(CONFIG|MIGRATIONS_DIR|TIME_SCALE|(API|MYSQL|REDIS|JOBS|WORKERS|SCHEDULER|SECURITY|WEBHOOKS|MEDIA|SPEECH|LOG)_.*)$'
while read -r name; do
    if [[ $name =~ $config_override ]]; then unset "$name"; fi
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
