#!/usr/bin/env bash
# Throwaway MariaDB and Redis servers on loopback, for development stacks and test runs.
#
#   scripts/servers.sh start DIR [MYSQL_PORT REDIS_PORT]   start both (free ports when not given)
#   scripts/servers.sh stop DIR                            stop both
#   scripts/servers.sh stop-mysql|start-mysql DIR          stop or start MariaDB alone (same port, same data)
#   scripts/servers.sh stop-redis|start-redis DIR          stop or start Redis alone (AOF keeps its data)
#
# `start` writes DIR/servers.env with SQUAWK_TEST_* variables and the generated password of the
# `squawk` MySQL user. Nothing listens beyond 127.0.0.1.
#
# MariaDB flushes its redo log at each commit, so a committed row survives a power loss: what a 202
# promises. MARIADB_FLUSH_LOG_AT_TRX_COMMIT=2 flushes it once a second instead, the durability of
# the Redis beside it (appendfsync everysec), to measure what the flush costs (docs/profiling.md).
set -euo pipefail

cmd=${1:?usage: servers.sh start|stop|stop-mysql|start-mysql|stop-redis|start-redis DIR}
dir=${2:?missing DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
env_file=$dir/servers.env

# shellcheck source=lib/process.sh
. "$(dirname "$0")/lib/process.sh"

start_mysql() {
    local port=$1
    mkdir -p "$dir/mysql"
    if [ ! -d "$dir/mysql/data/mysql" ]; then
        mariadb-install-db --no-defaults --user="$(id -un)" --datadir="$dir/mysql/data" \
            --auth-root-authentication-method=normal --skip-test-db >"$dir/mysql/install.log" 2>&1
    fi
    mariadbd --no-defaults --user="$(id -un)" --datadir="$dir/mysql/data" \
        --socket="$dir/mysql/mysql.sock" --pid-file="$dir/mysql/mysql.pid" \
        --bind-address=127.0.0.1 --port="$port" --skip-name-resolve --skip-log-bin \
        --innodb-buffer-pool-size=128M --max-connections=500 \
        --innodb-flush-log-at-trx-commit="${MARIADB_FLUSH_LOG_AT_TRX_COMMIT:-1}" \
        --character-set-server=utf8mb4 --collation-server=utf8mb4_bin \
        --log-error="$dir/mysql/error.log" >/dev/null 2>&1 &
    for _ in $(seq 1 200); do
        if mariadb-admin --no-defaults --socket="$dir/mysql/mysql.sock" -uroot ping >/dev/null 2>&1; then
            return 0
        fi
        sleep 0.05
    done
    echo "MariaDB did not start; see $dir/mysql/error.log" >&2
    exit 1
}

start_redis() {
    local port=$1
    mkdir -p "$dir/redis"
    redis-server --bind 127.0.0.1 --port "$port" --dir "$dir/redis" --daemonize yes \
        --pidfile "$dir/redis/redis.pid" --logfile "$dir/redis/redis.log" --save '' \
        --appendonly yes --appendfsync everysec >/dev/null
    for _ in $(seq 1 200); do
        if redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1; then return 0; fi
        sleep 0.05
    done
    echo "Redis did not start; see $dir/redis/redis.log" >&2
    exit 1
}

load_env() {
    # shellcheck disable=SC1090
    . "$env_file"
}

case "$cmd" in
start)
    if [ -f "$env_file" ]; then
        load_env
        mysql_port=$SQUAWK_TEST_MYSQL_PORT
        redis_port=$SQUAWK_TEST_REDIS_PORT
        password=$SQUAWK_TEST_MYSQL_PASSWORD
    else
        mysql_port=${3:-$(free_port)}
        redis_port=${4:-$(free_port)}
        password=$(head -c 18 /dev/urandom | base64 | tr -d '/+=')
    fi
    if ! mariadb-admin --no-defaults --socket="$dir/mysql/mysql.sock" -uroot ping >/dev/null 2>&1; then
        start_mysql "$mysql_port"
    fi
    mariadb --no-defaults --socket="$dir/mysql/mysql.sock" -uroot <<SQL
CREATE USER IF NOT EXISTS 'squawk'@'127.0.0.1' IDENTIFIED BY '$password';
GRANT ALL PRIVILEGES ON *.* TO 'squawk'@'127.0.0.1' WITH GRANT OPTION;
CREATE DATABASE IF NOT EXISTS squawk CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
SQL
    if ! redis-cli -h 127.0.0.1 -p "$redis_port" ping >/dev/null 2>&1; then
        start_redis "$redis_port"
    fi
    cat >"$env_file" <<ENV
SQUAWK_TEST_MYSQL_HOST=127.0.0.1
SQUAWK_TEST_MYSQL_PORT=$mysql_port
SQUAWK_TEST_MYSQL_USER=squawk
SQUAWK_TEST_MYSQL_PASSWORD=$password
SQUAWK_TEST_REDIS_PORT=$redis_port
SQUAWK_TEST_SERVERS_DIR=$dir
ENV
    ;;
stop)
    stop_pidfile "$dir/mysql/mysql.pid"
    stop_pidfile "$dir/redis/redis.pid"
    ;;
stop-mysql)
    stop_pidfile "$dir/mysql/mysql.pid"
    ;;
start-mysql)
    load_env
    start_mysql "$SQUAWK_TEST_MYSQL_PORT"
    ;;
stop-redis)
    stop_pidfile "$dir/redis/redis.pid"
    ;;
start-redis)
    load_env
    start_redis "$SQUAWK_TEST_REDIS_PORT"
    ;;
*)
    echo "unknown command: $cmd" >&2
    exit 2
    ;;
esac
