#!/usr/bin/env bash
# Squawk past one machine, on loopback: a three-node Galera cluster (scripts/galera.sh), a Redis
# primary with a replica and three Sentinels (scripts/sentinel.sh), two squawk-api behind HAProxy,
# two workers and two schedulers, all reaching MySQL through mysql.hosts and Redis through
# redis.sentinels.
#
#   scripts/cluster.sh up           start what is not running; returns once HAProxy answers /health
#   scripts/cluster.sh down         stop all of it
#   scripts/cluster.sh start NAME   start one process again (a daemon, haproxy or mariadb-N, which
#                                   waits until the node has rejoined)
#   scripts/cluster.sh stop NAME    stop one (mariadb-N: a clean node shutdown)
#   scripts/cluster.sh ctl ARGS...  squawkctl ARGS against the cluster
#
# State lives in var/cluster/, pid files in var/run/cluster/ (mariadb-1..3, redis-primary,
# redis-replica, sentinel-1..3, haproxy, api-1, api-2, worker-1, worker-2, scheduler-1,
# scheduler-2), logs in var/log/cluster/. var/cluster.env points a shell at it like var/demo.env:
# `. var/cluster.env` sets SQUAWK_BASE_URL (HAProxy), the keys and what squawkctl needs.
# SQUAWK_CLUSTER_VAR puts all of it in another folder instead of var/ (the cluster chaos run and
# benchmark use a scratch one), SQUAWK_CLUSTER_CONFIG gives the daemons another file than
# config/squawk.toml.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/process.sh
. "$root/scripts/lib/process.sh"

usage="usage: cluster.sh up|down|start NAME|stop NAME|ctl ARGS..."
cmd=${1:?$usage}
build_dir=${BUILD_DIR:-build}
case "$build_dir" in /*) ;; *) build_dir=$root/$build_dir ;; esac
bin=$build_dir/bin
config=${SQUAWK_CLUSTER_CONFIG:-$root/config/squawk.toml}

var=${SQUAWK_CLUSTER_VAR:-$root/var}
state=$var/cluster
run=$var/run/cluster
logs=$var/log/cluster
cluster_env=$var/cluster.env
ports_env=$state/ports.env
processes=(api-1 api-2 worker-1 worker-2 scheduler-1 scheduler-2)
cd "$root"

binary_of() {
    case "$1" in
    api-*) echo squawk-api ;;
    worker-*) echo squawk-worker ;;
    scheduler-*) echo squawk-scheduler ;;
    esac
}

running_pid() {
    local pid
    pid=$(cat "$run/$1.pid" 2>/dev/null || true)
    if is_running "$pid"; then echo "$pid"; fi
}

# HAProxy's port and each API's, chosen once.
load_ports() {
    if [ ! -f "$ports_env" ]; then
        {
            echo "HAPROXY_PORT=$(free_port)"
            echo "API1_PORT=$(free_port)"
            echo "API2_PORT=$(free_port)"
        } >"$ports_env"
    fi
    # shellcheck source=/dev/null
    . "$ports_env"
}

# What every daemon of the cluster is given on top of config/squawk.toml.
export_settings() {
    # shellcheck source=/dev/null
    . "$state/galera/galera.env"
    # shellcheck source=/dev/null
    . "$state/redis/sentinel.env"
    export SQUAWK_CONFIG=$config
    export SQUAWK_MYSQL_HOSTS=$SQUAWK_GALERA_HOSTS
    export SQUAWK_MYSQL_USER=squawk
    export SQUAWK_MYSQL_PASSWORD=$SQUAWK_GALERA_PASSWORD
    # Each process writes through another node: reads and claims (UPDATE) wait for the others'.
    export SQUAWK_MYSQL_WSREP_SYNC_WAIT=3
    export SQUAWK_REDIS_SENTINELS
    export SQUAWK_MEDIA_DIR=$state/media
    export SQUAWK_API_PUBLIC_BASE_URL=http://127.0.0.1:$HAPROXY_PORT/v1
    export SQUAWK_WORKERS_METRICS_PORT=0
    export SQUAWK_SCHEDULER_METRICS_PORT=0
    if [ ! -s "$state/secret.key" ]; then
        (umask 077 && openssl rand -hex 32 >"$state/secret.key")
    fi
    SQUAWK_SECURITY_SECRET_KEY=$(cat "$state/secret.key")
    export SQUAWK_SECURITY_SECRET_KEY
}

start_haproxy() {
    [ -n "$(running_pid haproxy)" ] && return 0
    # Each API is checked on /health every second and taken out after two failed checks.
    cat >"$state/haproxy.cfg" <<CFG
global
    maxconn 4096
defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
frontend squawk
    bind 127.0.0.1:$HAPROXY_PORT
    default_backend squawk_api
backend squawk_api
    option httpchk GET /health
    http-check expect status 200
    retry-on conn-failure empty-response
    server api-1 127.0.0.1:$API1_PORT check inter 1s fall 2 rise 1
    server api-2 127.0.0.1:$API2_PORT check inter 1s fall 2 rise 1
CFG
    haproxy -f "$state/haproxy.cfg" -D -p "$run/haproxy.pid" >>"$logs/haproxy.log" 2>&1
}

# mysql.hosts of the process at `index` in $processes: the node list turned to start at another
# node for each, so every node takes writes (as Galera is run behind a load balancer) and
# certification conflicts between nodes happen as they would in production.
hosts_from() {
    local index=$1 hosts=()
    IFS=, read -r -a hosts <<<"$SQUAWK_GALERA_HOSTS"
    local n=${#hosts[@]} out=() i
    for ((i = 0; i < n; i++)); do out+=("${hosts[$(((index + i) % n))]}"); done
    (IFS=, && echo "${out[*]}")
}

start_process() {
    local name=$1 extra=() index
    [ -n "$(running_pid "$name")" ] && return 0
    for index in "${!processes[@]}"; do [ "${processes[$index]}" = "$name" ] && break; done
    extra=(env "SQUAWK_MYSQL_HOSTS=$(hosts_from "$index")")
    case "$name" in
    api-1) extra+=("SQUAWK_API_LISTEN=127.0.0.1:$API1_PORT") ;;
    api-2) extra+=("SQUAWK_API_LISTEN=127.0.0.1:$API2_PORT") ;;
    esac
    setsid "${extra[@]}" "$bin/$(binary_of "$name")" --config "$config" \
        >>"$logs/$name.log" 2>&1 </dev/null &
    echo $! >"$run/$name.pid"
}

wait_healthy() {
    for _ in $(seq 1 600); do
        if curl -fsS -o /dev/null --max-time 1 "http://127.0.0.1:$HAPROXY_PORT/health" 2>/dev/null; then
            return 0
        fi
        for name in "${processes[@]}"; do
            if [ -z "$(running_pid "$name")" ]; then
                echo "cluster: $name exited during start-up" >&2
                tail -n 20 "$logs/$name.log" >&2
                return 1
            fi
        done
        sleep 0.1
    done
    echo "cluster: HAProxy did not answer /health within 60 s" >&2
    return 1
}

# The demo workspace and its keys, made once per cluster.
write_cluster_env() {
    if [ ! -f "$cluster_env" ]; then
        local workspace test_key live_key
        workspace=$("$bin/squawkctl" workspace create --name cluster-demo)
        test_key=$("$bin/squawkctl" key create --workspace "$workspace" --type test --scopes all)
        live_key=$("$bin/squawkctl" key create --workspace "$workspace" --type live --scopes all)
        umask 077
        {
            echo "# Written by scripts/cluster.sh. \`. var/cluster.env\` points curl and squawkctl at the cluster."
            printf 'export %s=%q\n' SQUAWK_BASE_URL "$SQUAWK_API_PUBLIC_BASE_URL" \
                SQUAWK_TEST_KEY "$test_key" SQUAWK_LIVE_KEY "$live_key" \
                SQUAWK_WORKSPACE_ID "$workspace" SQUAWK_CONFIG "$config" \
                SQUAWK_MYSQL_HOSTS "$SQUAWK_MYSQL_HOSTS" SQUAWK_MYSQL_USER squawk \
                SQUAWK_MYSQL_PASSWORD "$SQUAWK_MYSQL_PASSWORD" \
                SQUAWK_REDIS_SENTINELS "$SQUAWK_REDIS_SENTINELS"
        } >"$cluster_env"
        umask 022
    fi
}

up() {
    for name in squawk-api squawk-worker squawk-scheduler squawkctl; do
        if [ ! -x "$bin/$name" ]; then
            echo "cluster: $bin/$name is missing; build first (make build)" >&2
            exit 1
        fi
    done
    mkdir -p "$state" "$run" "$logs"
    load_ports
    PID_DIR=$run "$root/scripts/galera.sh" start "$state/galera"
    PID_DIR=$run "$root/scripts/sentinel.sh" start "$state/redis"
    export_settings
    "$bin/squawkctl" migrate
    write_cluster_env
    for name in "${processes[@]}"; do start_process "$name"; done
    start_haproxy
    wait_healthy
    cat <<TEXT

The Squawk cluster is running: HAProxy at http://127.0.0.1:$HAPROXY_PORT in front of two APIs,
two workers and two schedulers, on three Galera nodes and Redis with Sentinel.
  . var/cluster.env
  curl -s "\$SQUAWK_BASE_URL/me" -H "Authorization: Bearer \$SQUAWK_TEST_KEY"
Pids in var/run/cluster/, logs in var/log/cluster/. make cluster-down stops it.
TEXT
}

down() {
    stop_pidfile "$run/haproxy.pid" 10
    for name in api-1 api-2 scheduler-1 scheduler-2; do stop_pidfile "$run/$name.pid" 15; done
    for name in worker-1 worker-2; do stop_pidfile "$run/$name.pid" 40; done
    if [ -d "$state/redis" ]; then PID_DIR=$run "$root/scripts/sentinel.sh" stop "$state/redis"; fi
    if [ -d "$state/galera" ]; then PID_DIR=$run "$root/scripts/galera.sh" stop "$state/galera"; fi
    echo "cluster: down"
}

# What one process needs to start again: its ports and the cluster's settings.
prepare() {
    if [ ! -f "$ports_env" ]; then
        echo "cluster: not set up; run cluster.sh up first" >&2
        exit 1
    fi
    load_ports
    export_settings
}

start_one() {
    local name=${1:?$usage}
    case "$name" in
    mariadb-[1-3]) PID_DIR=$run "$root/scripts/galera.sh" start-node "$state/galera" "${name#mariadb-}" ;;
    haproxy) prepare && start_haproxy ;;
    api-[12] | worker-[12] | scheduler-[12]) prepare && start_process "$name" ;;
    *)
        echo "cluster: cannot start $name alone" >&2
        exit 2
        ;;
    esac
}

stop_one() {
    local name=${1:?$usage}
    case "$name" in
    mariadb-[1-3]) PID_DIR=$run "$root/scripts/galera.sh" stop-node "$state/galera" "${name#mariadb-}" ;;
    worker-[12]) stop_pidfile "$run/$name.pid" 40 ;;
    haproxy | api-[12] | scheduler-[12]) stop_pidfile "$run/$name.pid" 15 ;;
    *)
        echo "cluster: cannot stop $name alone" >&2
        exit 2
        ;;
    esac
}

case "$cmd" in
up) up ;;
down) down ;;
start) start_one "${2:-}" ;;
stop) stop_one "${2:-}" ;;
ctl)
    prepare
    shift
    "$bin/squawkctl" "$@"
    ;;
*)
    echo "$usage" >&2
    exit 2
    ;;
esac
