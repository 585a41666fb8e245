#!/usr/bin/env bash
# `make bench`: every benchmark of tests/bench/ beside its peer, on a Release build and throwaway
# servers, written to build/bench/results.md and build/bench/results.json.
#
#   BUILD_DIR=build-release scripts/bench.sh [NAME...]     (names as in bench_NAME; default all)
# BENCH_REPEATS (3) sets the interleaved rounds. Peers (npm packages, nginx) live in
# build/bench/scratch and are never committed. BENCH_CPU_QUOTA=N (cores, e.g. 1 or 0.5) runs
# everything, servers and peers included, under one cgroup CPU quota of N cores, as a slower
# machine would; its results go to build/bench/cpu-N/ so both runs can be read side by side.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-build-release}
case "$build_dir" in /*) ;; *) build_dir=$root/$build_dir ;; esac
out_dir=$root/build/bench
mkdir -p "$out_dir/scratch"
export BENCH_SCRATCH=$out_dir/scratch BENCH_REPEATS=${BENCH_REPEATS:-3} BUILD_DIR=$build_dir

# Enter the quota once, before the servers start, so they are in it too.
if [ -n "${BENCH_CPU_QUOTA:-}" ] && [ -z "${SQUAWK_BENCH_CGROUP:-}" ]; then
    # shellcheck source=lib/cpu_quota.sh
    . "$root/scripts/lib/cpu_quota.sh"
    SQUAWK_BENCH_CGROUP=$(cpu_quota_create "$BENCH_CPU_QUOTA")
    export SQUAWK_BENCH_CGROUP
    status=0
    bash -c 'echo $$ >"$SQUAWK_BENCH_CGROUP/cgroup.procs" && exec "$@"' quota "$0" "$@" || status=$?
    cpu_quota_remove "$SQUAWK_BENCH_CGROUP"
    exit "$status"
fi
if [ -n "${BENCH_CPU_QUOTA:-}" ]; then
    out_dir=$out_dir/cpu-$BENCH_CPU_QUOTA
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

status=0
started=$SECONDS
for name in "${names[@]}"; do
    echo "== bench: $name"
    rm -f "$out_dir/$name.json"
    if ! BENCH_OUT=$out_dir/$name.json "$build_dir/bin/bench_$name"; then
        echo "== bench: $name FAILED" >&2
        status=1
    fi
done
python3 "$root/tests/bench/report.py" "$out_dir" "${names[@]}"
echo "== bench: finished in $((SECONDS - started)) s; see ${out_dir#"$root"/}/results.md"
exit "$status"
