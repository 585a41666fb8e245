#!/usr/bin/env bash
# `make bench`: every benchmark of tests/bench/ beside its peer, on a Release build and throwaway
# servers, written to build/bench/results.md and build/bench/results.json.
#
#   BUILD_DIR=build-release scripts/bench.sh [NAME...]     (names as in bench_NAME; default all)
# BENCH_REPEATS (3) sets the interleaved rounds. Peers (npm packages, nginx) live in
# build/bench/scratch and are never committed.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${BUILD_DIR:-build-release}
case "$build_dir" in /*) ;; *) build_dir=$root/$build_dir ;; esac
out_dir=$root/build/bench
mkdir -p "$out_dir/scratch"

export BENCH_SCRATCH=$out_dir/scratch BENCH_REPEATS=${BENCH_REPEATS:-3} BUILD_DIR=$build_dir

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
echo "== bench: finished in $((SECONDS - started)) s; see build/bench/results.md"
exit "$status"
