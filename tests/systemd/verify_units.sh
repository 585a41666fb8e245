#!/usr/bin/env bash
# Runs `systemd-analyze verify` on every unit in UNIT_DIR (and on each example drop-in in
# UNIT_DIR/examples applied to its unit) and fails on any output at all: verify exits 0 on unknown
# keys and only warns about them.
#
#   verify_units.sh UNIT_DIR BIN_DIR WORK_DIR
#
# verify also fails a unit whose ExecStart binary does not exist. The units name /usr/bin/squawk-*,
# which exists only after installation, so they are checked as copies in WORK_DIR whose ExecStart
# points at the binaries of this build in BIN_DIR: the same command lines, real executables.
set -euo pipefail

unit_dir=${1:?usage: verify_units.sh UNIT_DIR BIN_DIR WORK_DIR}
bin_dir=${2:?missing BIN_DIR}
work_dir=${3:?missing WORK_DIR}

rm -rf "$work_dir"
mkdir -p "$work_dir"
units=()
for unit in "$unit_dir"/*.service "$unit_dir"/*.target; do
    [ -e "$unit" ] || continue
    sed "s#^ExecStart=/usr/bin/#ExecStart=$bin_dir/#" "$unit" >"$work_dir/$(basename "$unit")"
    units+=("$work_dir/$(basename "$unit")")
done
if [ ${#units[@]} -eq 0 ]; then
    echo "no units found in $unit_dir" >&2
    exit 1
fi

# An example drop-in dir is named after a unit instance (squawk-worker@generate.service.d): verify
# that instance from its template, so a drop-in with a bad key fails like a unit would.
for dropin in "$unit_dir"/examples/*.d; do
    [ -d "$dropin" ] || continue
    instance=$(basename "$dropin" .d)
    template=${instance%%@*}@.${instance##*.}
    cp "$work_dir/$template" "$work_dir/$instance"
    cp -r "$dropin" "$work_dir/"
    units+=("$work_dir/$instance")
done

status=0
output=$(cd "$work_dir" && systemd-analyze verify --man=no "${units[@]}" 2>&1) || status=$?
if [ "$status" -ne 0 ] || [ -n "$output" ]; then
    echo "systemd-analyze verify (exit $status) complained about ${units[*]##*/}:"
    echo "$output"
    exit 1
fi
echo "verified: ${units[*]##*/}"
