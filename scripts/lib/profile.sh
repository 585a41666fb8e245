# shellcheck shell=bash
# `BENCH_PROFILE=1 make bench`: where each benchmark's time goes, collected around it into a
# folder beside the results (docs/profiling.md reads them). Sourced by scripts/bench.sh inside
# scripts/with_servers.sh, whose SQUAWK_TEST_SERVERS_DIR names the throwaway servers.
#
# For bench NAME, DIR gets:
#   slow-NAME.log, slow-NAME.txt  every statement (MariaDB slow log at long_query_time = 0) and its
#                                 digest (pt-query-digest where installed, else mysqldumpslow)
#   cpu-NAME.md                   CPU seconds per process: the bench, its daemons and peers, MariaDB
#                                 and Redis (scripts/lib/cpu_time.py)
#   perf-NAME.data, perf-NAME.txt samples of the bench and everything it starts (perf record -g),
#                                 and the hottest symbols per command
#   perf-NAME-mariadbd.data/.txt  the same for MariaDB alone
# Logging every statement and sampling cost CPU: a profiled run's figures are not comparable with
# an unprofiled one's.

profile_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

profile_sql() {
    mariadb --no-defaults --socket="$SQUAWK_TEST_SERVERS_DIR/mysql/mysql.sock" -uroot -e "$1"
}

# The perf event to sample on, or failure when perf cannot sample here (not installed, or
# kernel.perf_event_paranoid forbids it): hardware counters are often missing in VMs, the
# cpu-clock timer is not; without root and with perf_event_paranoid at 2, user space only.
profile_perf_event() {
    local event=cpu-clock check
    command -v perf >/dev/null || return 1
    if [ "$(id -u)" -ne 0 ] && [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
        event=cpu-clock:u
    fi
    check=$(mktemp)
    if ! perf record -q -e "$event" -o "$check" -- true >/dev/null 2>&1; then
        rm -f "$check"
        return 1
    fi
    rm -f "$check"
    echo "$event"
}

# Writes the share of each command, then the hottest symbols, of perf data FILE to FILE's .txt.
profile_perf_report() {
    local data=$1 sort
    for sort in comm comm,dso,sym; do
        echo "# share of the samples by $sort"
        perf report -i "$data" --stdio --no-children --sort "$sort" --fields "overhead,$sort" \
            -g none --percent-limit 0.5 2>/dev/null | grep -v '^#' | grep . | sed 's/ *$//' |
            sort -rn
    done >"${data%.data}.txt"
}

# Runs the bench COMMAND... with its profile collected into DIR; returns the bench's exit code.
profile_run() {
    local dir=$1 name status=0 mysqld redis cpu_pid perf_db_pid="" event
    shift
    name=$(basename "$1")
    name=${name#bench_}
    mkdir -p "$dir"
    rm -f "$dir/slow-$name.log"
    mysqld=$(cat "$SQUAWK_TEST_SERVERS_DIR/mysql/mysql.pid")
    redis=$(cat "$SQUAWK_TEST_SERVERS_DIR/redis/redis.pid")

    profile_sql "SET GLOBAL slow_query_log_file = '$dir/slow-$name.log';
                 SET GLOBAL long_query_time = 0; SET GLOBAL slow_query_log = ON;"
    python3 "$profile_lib/cpu_time.py" --out "$dir/cpu-$name.md" --pid "$mysqld" --pid "$redis" \
        --env "SQUAWK_TEST_SERVERS_DIR=$SQUAWK_TEST_SERVERS_DIR" &
    cpu_pid=$!
    if event=$(profile_perf_event); then
        perf record -q -e "$event" -g -F 199 -p "$mysqld" -o "$dir/perf-$name-mariadbd.data" &
        perf_db_pid=$!
        perf record -q -e "$event" -g -F 199 -o "$dir/perf-$name.data" -- "$@" || status=$?
    else
        echo "profile: perf cannot sample here (Debian package linux-perf; root or" \
            "kernel.perf_event_paranoid <= 2); no samples taken" >&2
        "$@" || status=$?
    fi

    if [ -n "$perf_db_pid" ]; then
        kill -INT "$perf_db_pid" 2>/dev/null || true
        wait "$perf_db_pid" || true
    fi
    kill -TERM "$cpu_pid"
    wait "$cpu_pid" || true
    profile_sql "SET GLOBAL slow_query_log = OFF; SET GLOBAL long_query_time = 10;"

    if command -v pt-query-digest >/dev/null; then
        pt-query-digest --limit 25 "$dir/slow-$name.log" >"$dir/slow-$name.txt" 2>/dev/null
    else
        mysqldumpslow -s t -t 25 "$dir/slow-$name.log" >"$dir/slow-$name.txt" 2>/dev/null
    fi
    if [ -n "$perf_db_pid" ]; then
        profile_perf_report "$dir/perf-$name.data"
        profile_perf_report "$dir/perf-$name-mariadbd.data"
    fi
    echo "== bench: $name profile in $dir (cpu-$name.md, slow-$name.txt, perf-$name.txt)"
    return "$status"
}
