#!/usr/bin/env bash
# A throwaway Redis primary, one replica and three Sentinels watching them as "squawk", on
# loopback, for the failover tests and `make cluster-up`.
#
#   scripts/sentinel.sh start DIR         start what is not running (free ports the first time)
#   scripts/sentinel.sh stop DIR          stop all of it
#   scripts/sentinel.sh kill-primary DIR  SIGKILL whichever server is the primary now
#
# `start` returns once the replica is in sync and every Sentinel knows the replica and the other
# Sentinels, so a failover can be agreed. It writes DIR/sentinel.env: SQUAWK_REDIS_SENTINELS (for
# redis.sentinels) and the servers' ports. Pid files, in $PID_DIR or DIR: redis-primary.pid,
# redis-replica.pid, sentinel-1.pid .. sentinel-3.pid (named by the role each server started in).
set -euo pipefail

cmd=${1:?usage: sentinel.sh start|stop|kill-primary DIR}
dir=${2:?missing DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
env_file=$dir/sentinel.env
master=squawk

# shellcheck source=lib/process.sh
. "$(dirname "$0")/lib/process.sh"

pids=${PID_DIR:-$dir}

load_env() {
    # shellcheck disable=SC1090
    . "$env_file"
}

answers() { redis-cli -h 127.0.0.1 -p "$1" ping >/dev/null 2>&1; }

wait_for() {
    local what=$1
    shift
    for _ in $(seq 1 600); do
        if "$@"; then return 0; fi
        sleep 0.1
    done
    echo "sentinel.sh: $what did not happen within 60 s (logs in $dir)" >&2
    exit 1
}

# redis-server NAME PORT [ARGS...] in the background, with its pid file and log.
start_server() {
    local name=$1 port=$2
    shift 2
    answers "$port" && return 0
    redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" --dbfilename "$name.rdb" --save '' \
        --appendonly no --daemonize yes --pidfile "$pids/$name.pid" --logfile "$dir/$name.log" "$@"
    wait_for "$name to answer" answers "$port"
}

start_sentinel() {
    local n=$1 port=$2 file=$dir/sentinel-$1.conf
    answers "$port" && return 0
    # A Sentinel rewrites its own file with what it learns, so each has one.
    if [ ! -f "$file" ]; then
        cat >"$file" <<CONF
port $port
bind 127.0.0.1
dir $dir
sentinel monitor $master 127.0.0.1 $PRIMARY_PORT 2
sentinel down-after-milliseconds $master 1000
sentinel failover-timeout $master 5000
sentinel parallel-syncs $master 1
CONF
    fi
    redis-server "$file" --sentinel --daemonize yes --pidfile "$pids/sentinel-$n.pid" \
        --logfile "$dir/sentinel-$n.log"
    wait_for "sentinel $n to answer" answers "$port"
}

replica_in_sync() {
    redis-cli -h 127.0.0.1 -p "$REPLICA_PORT" info replication 2>/dev/null |
        grep -q '^master_link_status:up'
}

sentinels_agree() {
    local port
    for port in "$SENTINEL1_PORT" "$SENTINEL2_PORT" "$SENTINEL3_PORT"; do
        redis-cli -h 127.0.0.1 -p "$port" info sentinel 2>/dev/null |
            grep -q 'slaves=1,sentinels=3' || return 1
    done
}

# The port of the server that a Sentinel names as primary, from the first Sentinel that answers.
named_primary() {
    local sentinel reply
    for sentinel in "$SENTINEL1_PORT" "$SENTINEL2_PORT" "$SENTINEL3_PORT"; do
        reply=$(redis-cli -h 127.0.0.1 -p "$sentinel" sentinel get-master-addr-by-name "$master" \
            2>/dev/null | sed -n 2p) || continue
        if [[ $reply =~ ^[0-9]+$ ]]; then
            echo "$reply"
            return 0
        fi
    done
    return 1
}

case "$cmd" in
start)
    if [ ! -f "$env_file" ]; then
        {
            echo "PRIMARY_PORT=$(free_port)"
            echo "REPLICA_PORT=$(free_port)"
            for n in 1 2 3; do echo "SENTINEL${n}_PORT=$(free_port)"; done
        } >"$env_file"
        load_env
        echo "SQUAWK_REDIS_SENTINELS=127.0.0.1:$SENTINEL1_PORT,127.0.0.1:$SENTINEL2_PORT,127.0.0.1:$SENTINEL3_PORT" >>"$env_file"
    fi
    load_env
    start_server redis-primary "$PRIMARY_PORT"
    start_server redis-replica "$REPLICA_PORT" --replicaof 127.0.0.1 "$PRIMARY_PORT"
    wait_for "the replica to sync" replica_in_sync
    start_sentinel 1 "$SENTINEL1_PORT"
    start_sentinel 2 "$SENTINEL2_PORT"
    start_sentinel 3 "$SENTINEL3_PORT"
    wait_for "the sentinels to find each other and the replica" sentinels_agree
    ;;
stop)
    for name in sentinel-1 sentinel-2 sentinel-3 redis-replica redis-primary; do
        stop_pidfile "$pids/$name.pid" 10
    done
    ;;
kill-primary)
    load_env
    # A Sentinel can be slow to answer or mid-failover; any one of them names the primary, and an
    # empty or garbled answer must not pick a server.
    port=
    for _ in $(seq 1 100); do
        port=$(named_primary) && break
        sleep 0.1
    done
    case "$port" in
    "$PRIMARY_PORT") name=redis-primary ;;
    "$REPLICA_PORT") name=redis-replica ;;
    *)
        echo "sentinel.sh: no Sentinel named the primary within 10 s (logs in $dir)" >&2
        exit 1
        ;;
    esac
    pid=$(cat "$pids/$name.pid")
    kill -9 "$pid"
    wait_gone "$pid" 10
    ;;
*)
    echo "unknown command: $cmd" >&2
    exit 2
    ;;
esac
