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

servers_dir=$(mktemp -d "${TMPDIR:-/tmp}/squawk-bench.XXXXXX")
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
export SQUAWK_SOURCE_DIR=$root SQUAWK_BIN_DIR=$build_dir/bin
export BENCH_SCRATCH=$out_dir/scratch BENCH_REPEATS=${BENCH_REPEATS:-3}

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
