#!/usr/bin/env bash
# A throwaway three-node MariaDB Galera cluster on loopback, for the cluster tests and
# `make cluster-up`.
#
#   scripts/galera.sh start DIR               start the three nodes (free ports the first time)
#   scripts/galera.sh stop DIR                stop them
#   scripts/galera.sh stop-node DIR N         stop node N (1-3) cleanly; kill-node: SIGKILL
#   scripts/galera.sh start-node DIR N        start node N again; it rejoins (IST, or SST by rsync)
#
# `start` writes DIR/galera.env: SQUAWK_GALERA_HOSTS (host:port,... for mysql.hosts), each node's
# port, and the generated password of the `squawk` user. Pid files: mariadb-1.pid .. mariadb-3.pid
# in $PID_DIR, or DIR. The first node is made and bootstrapped
# alone, then its data directory is copied to the others, so they join without a state transfer.
set -euo pipefail

cmd=${1:?usage: galera.sh start|stop|stop-node|kill-node|start-node DIR [N]}
dir=${2:?missing DIR}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
env_file=$dir/galera.env

# shellcheck source=lib/process.sh
. "$(dirname "$0")/lib/process.sh"

# rsync, which moves state to a node that missed too much, drops to `nobody` when run as root and
# then cannot write the data directory: nodes started by root run as the package's `mysql` user.
if [ "$(id -u)" = 0 ]; then node_user=mysql; else node_user=$(id -un); fi

# That user must reach the node folders inside DIR.
[ "$node_user" = "$(id -un)" ] || chmod a+x "$dir"

node_dir() { echo "$dir/node-$1"; }

pid_file() { echo "${PID_DIR:-$dir}/mariadb-$1.pid"; }

socket_of() { echo "$(node_dir "$1")/mysql.sock"; }

ping_node() {
    mariadb-admin --no-defaults --socket="$(socket_of "$1")" -uroot ping >/dev/null 2>&1
}

# Runs mariadbd for node N with Galera on; extra arguments (--wsrep-new-cluster) follow.
launch() {
    local n=$1
    shift
    local d port gcomm ist sst
    d=$(node_dir "$n")
    eval "port=\$NODE${n}_PORT gcomm=\$NODE${n}_GCOMM ist=\$NODE${n}_IST sst=\$NODE${n}_SST"
    mariadbd --no-defaults --user="$node_user" --datadir="$d/data" --socket="$(socket_of "$n")" \
        --pid-file="$d/mariadbd.pid" --bind-address=127.0.0.1 --port="$port" --skip-name-resolve \
        --log-error="$d/error.log" --innodb-buffer-pool-size=64M --max-connections=500 \
        --character-set-server=utf8mb4 --collation-server=utf8mb4_bin \
        --binlog-format=ROW --default-storage-engine=InnoDB --innodb-autoinc-lock-mode=2 \
        --wsrep-on=ON --wsrep-provider=/usr/lib/galera/libgalera_smm.so \
        --wsrep-cluster-name=squawk --wsrep-node-name="node-$n" \
        --wsrep-cluster-address="gcomm://127.0.0.1:$NODE1_GCOMM,127.0.0.1:$NODE2_GCOMM,127.0.0.1:$NODE3_GCOMM" \
        --wsrep-node-address="127.0.0.1:$gcomm" \
        --wsrep-provider-options="gmcast.listen_addr=tcp://127.0.0.1:$gcomm;ist.recv_addr=127.0.0.1:$ist;gcache.size=128M" \
        --wsrep-sst-method=rsync --wsrep-sst-receive-address="127.0.0.1:$sst" \
        "$@" >/dev/null 2>&1 &
    echo $! >"$(pid_file "$n")"
}

# Waits until node N answers and is synced with the cluster.
wait_synced() {
    local n=$1
    for _ in $(seq 1 600); do
        if ping_node "$n" && [ "$(mariadb --no-defaults --socket="$(socket_of "$n")" -uroot -N \
            -e "SHOW STATUS LIKE 'wsrep_local_state_comment'" 2>/dev/null | cut -f2)" = Synced ]; then
            return 0
        fi
        sleep 0.1
    done
    echo "Galera node $n did not join; see $(node_dir "$n")/error.log" >&2
    exit 1
}

load_env() {
    # shellcheck disable=SC1090
    . "$env_file"
}

write_env() {
    local password=$1
    {
        for n in 1 2 3; do
            echo "NODE${n}_PORT=$(free_port)"
            echo "NODE${n}_GCOMM=$(free_port)"
            echo "NODE${n}_IST=$(free_port)"
            echo "NODE${n}_SST=$(free_port)"
        done
        echo "SQUAWK_GALERA_PASSWORD=$password"
    } >"$env_file"
    load_env
    echo "SQUAWK_GALERA_HOSTS=127.0.0.1:$NODE1_PORT,127.0.0.1:$NODE2_PORT,127.0.0.1:$NODE3_PORT" \
        >>"$env_file"
}

# The first node alone, with the squawk user and database, stopped cleanly; its copies become the
# other nodes.
make_nodes() {
    local first
    first=$(node_dir 1)
    mkdir -p "$first"
    chown "$node_user" "$first"
    mariadb-install-db --no-defaults --user="$node_user" --datadir="$first/data" \
        --auth-root-authentication-method=normal --skip-test-db >"$first/install.log" 2>&1
    launch 1 --wsrep-new-cluster
    wait_synced 1
    mariadb --no-defaults --socket="$(socket_of 1)" -uroot <<SQL
CREATE USER IF NOT EXISTS 'squawk'@'127.0.0.1' IDENTIFIED BY '$SQUAWK_GALERA_PASSWORD';
GRANT ALL PRIVILEGES ON *.* TO 'squawk'@'127.0.0.1' WITH GRANT OPTION;
CREATE DATABASE IF NOT EXISTS squawk CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
SQL
    stop_pidfile "$(pid_file 1)" 60
    for n in 2 3; do
        mkdir -p "$(node_dir "$n")"
        chown "$node_user" "$(node_dir "$n")"
        cp -a "$first/data" "$(node_dir "$n")/data"
        sed -i 's/^safe_to_bootstrap: 1/safe_to_bootstrap: 0/' "$(node_dir "$n")/data/grastate.dat"
    done
}

case "$cmd" in
start)
    if [ ! -f "$env_file" ]; then
        write_env "$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
        make_nodes
    fi
    load_env
    # The node that stopped last holds the newest state and may bootstrap; the others join it.
    first=1
    for n in 1 2 3; do
        if grep -q '^safe_to_bootstrap: 1' "$(node_dir "$n")/data/grastate.dat" 2>/dev/null; then
            first=$n
        fi
    done
    if ! ping_node "$first"; then
        launch "$first" --wsrep-new-cluster
        wait_synced "$first"
    fi
    for n in 1 2 3; do
        if ! ping_node "$n"; then launch "$n"; fi
    done
    for n in 1 2 3; do wait_synced "$n"; done
    ;;
stop)
    # One at a time, so the last one out can bootstrap the next start.
    for n in 3 2 1; do stop_pidfile "$(pid_file "$n")" 60; done
    ;;
stop-node)
    stop_pidfile "$(pid_file "${3:?missing N}")" 60
    ;;
kill-node)
    pidfile=$(pid_file "${3:?missing N}")
    if [ -f "$pidfile" ]; then
        pid=$(cat "$pidfile")
        kill -9 "$pid" 2>/dev/null || true
        wait_gone "$pid" 10
        rm -f "$pidfile"
    fi
    ;;
start-node)
    load_env
    launch "${3:?missing N}"
    wait_synced "$3"
    ;;
*)
    echo "unknown command: $cmd" >&2
    exit 2
    ;;
esac
