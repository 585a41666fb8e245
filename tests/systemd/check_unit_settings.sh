#!/usr/bin/env bash
# Checks that every Squawk service unit keeps the settings operations rely on: readiness and
# watchdog through sd_notify, restart on failure, the shared environment file and the hardening.
#
#   check_unit_settings.sh UNIT_DIR PRODUCTION_CONFIG
set -euo pipefail

unit_dir=${1:?usage: check_unit_settings.sh UNIT_DIR PRODUCTION_CONFIG}
config=${2:?missing PRODUCTION_CONFIG}
required=(
    Type=notify NotifyAccess=main WatchdogSec=30 Restart=on-failure User=squawk Group=squawk
    EnvironmentFile=-/etc/squawk/squawk.env StateDirectory=squawk WorkingDirectory=/var/lib/squawk
    ReadWritePaths=/var/lib/squawk NoNewPrivileges=yes ProtectSystem=strict ProtectHome=yes
    PrivateTmp=yes PartOf=squawk.target WantedBy=squawk.target
)

# TimeoutStopSec must outlast the worker's shutdown grace (workers.shutdown_grace_seconds).
grace=$(sed -n 's/^shutdown_grace_seconds = //p' "$config")
[ -n "$grace" ] || { echo "no shutdown_grace_seconds in $config" >&2; exit 1; }

failed=0
services=("$unit_dir"/*.service)
[ -e "${services[0]}" ] || { echo "no service units in $unit_dir" >&2; exit 1; }
for unit in "${services[@]}"; do
    for line in "${required[@]}"; do
        if ! grep -qxF "$line" "$unit"; then
            echo "$(basename "$unit"): missing $line"
            failed=1
        fi
    done
    stop=$(sed -n 's/^TimeoutStopSec=//p' "$unit")
    if [ -z "$stop" ] || [ "$stop" -le "$grace" ]; then
        echo "$(basename "$unit"): TimeoutStopSec=${stop:-unset} must exceed the shutdown grace ($grace s)"
        failed=1
    fi
done
[ "$failed" -eq 0 ] && echo "settings present in: ${services[*]##*/}"
exit "$failed"
