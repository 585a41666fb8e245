#!/usr/bin/env bash
# `make bench`: every benchmark of tests/bench/ beside its peer, on a Release build and throwaway
# servers, written to build/bench/results.md and build/bench/results.json.
#
#   BUILD_DIR=build-release scripts/bench.sh [NAME...]     (names as in bench_NAME; default all)
# BENCH_REPEATS (3) sets the interleaved rounds. Peers (npm packages, nginx) live in
# build/bench/scratch and are never committed. BENCH_CPU_QUOTA=P (percent of one core, e.g. 100
# or 50) runs everything, servers and peers included, under one CPU quota of P % of one core, as
# a slower machine would; its results go to build/bench/cpu-Ppct/ to be read beside the unlimited
# run. BENCH_PROFILE=1 also collects where the time goes (docs/profiling.md).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-build-release}
case "$build_dir" in /*) ;; *) build_dir=$root/$build_dir ;; esac
out_dir=$root/build/bench
mkdir -p "$out_dir/scratch"
export BENCH_SCRATCH=$out_dir/scratch BENCH_REPEATS=${BENCH_REPEATS:-3} BUILD_DIR=$build_dir

# Enter the quota once, before the servers start, so they are in it too. Its marker is no SQUAWK_
# variable: scripts/with_servers.sh clears those, and the servers would get a quota of their own.
if [ -n "${BENCH_CPU_QUOTA:-}" ] && [ -z "${BENCH_CPU_QUOTA_METHOD:-}" ]; then
    # shellcheck source=lib/cpu_quota.sh
    . "$root/scripts/lib/cpu_quota.sh"
    status=0
    cpu_quota_run "$BENCH_CPU_QUOTA" "$0" "$@" || status=$?
    exit "$status"
fi
if [ -n "${BENCH_CPU_QUOTA:-}" ]; then
    out_dir=$out_dir/cpu-${BENCH_CPU_QUOTA}pct
    mkdir -p "$out_dir"
fi

# Re-enter under throwaway servers (scripts/with_servers.sh) once.
if [ -z "${SQUAWK_TEST_MYSQL_PORT:-}" ]; then
    exec "$root/scripts/with_servers.sh" "$0" "$@"
fi

if [ $# -gt 0 ]; then
    names=("$@")
else
    names=()
    for binary in "$build_dir"/bin/bench_*; do names+=("${binary##*/bench_}"); done
fi

run=()
if [ -n "${BENCH_PROFILE:-}" ]; then
    # shellcheck source=lib/profile.sh
    . "$root/scripts/lib/profile.sh"
    run=(profile_run "$out_dir/profile")
fi

status=0
started=$SECONDS
for name in "${names[@]}"; do
    echo "== bench: $name"
    rm -f "$out_dir/$name.json"
    if ! BENCH_OUT=$out_dir/$name.json "${run[@]}" "$build_dir/bin/bench_$name"; then
        echo "== bench: $name FAILED" >&2
        status=1
    fi
done
python3 "$root/tests/bench/report.py" "$out_dir" "${names[@]}"
echo "== bench: finished in $((SECONDS - started)) s; see ${out_dir#"$root"/}/results.md"
exit "$status"
