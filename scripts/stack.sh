#!/usr/bin/env bash
# The local Squawk stack: throwaway MariaDB and Redis under var/, migrations, a demo workspace with
# one test key and one live key, and the three daemons.
#
#   scripts/stack.sh run    all of it in the foreground; Ctrl-C stops what it started
#   scripts/stack.sh up     the same in the background; returns once GET /health answers and only
#                           starts what is not running (so it also restarts a killed daemon)
#   scripts/stack.sh down   stops the daemons and the servers
#
# Addresses come from the config ($SQUAWK_CONFIG, else config/squawk.toml) and its SQUAWK_*
# overrides, e.g. SQUAWK_MYSQL_PORT=23306 or SQUAWK_API_LISTEN=127.0.0.1:9090. Every SQUAWK_*
# variable in the environment reaches the daemons (SQUAWK_TIME_SCALE=0.01 make up).
# BUILD_DIR picks the binaries (default build). var/demo.env lets a shell reach the stack:
# `. var/demo.env` sets SQUAWK_BASE_URL, the keys, SQUAWK_CONFIG and what squawkctl needs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib/process.sh
. "$root/scripts/lib/process.sh"

cmd=${1:?usage: stack.sh run|up|down}
build_dir=${BUILD_DIR:-build}
case "$build_dir" in /*) ;; *) build_dir=$root/$build_dir ;; esac
bin=$build_dir/bin
config=${SQUAWK_CONFIG:-$root/config/squawk.toml}
case "$config" in /*) ;; *) config=$(pwd)/$config ;; esac
export SQUAWK_CONFIG=$config

var=$root/var
servers=$var/servers
demo_env=$var/demo.env
daemons=(squawk-api squawk-worker squawk-scheduler)
cd "$root"

# A config value as the daemons will see it: the SQUAWK_<SECTION>_<KEY> override, else the file.
config_value() {
    local key=$1 env_name
    env_name=SQUAWK_$(tr '.a-z' '_A-Z' <<<"$key")
    if [ -n "${!env_name:-}" ]; then
        echo "${!env_name}"
        return
    fi
    python3 - "$config" "$key" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    value = tomllib.load(f)
try:
    for part in sys.argv[2].split("."):
        value = value[part]
except KeyError:
    sys.exit(f"{sys.argv[1]} has no key {sys.argv[2]}")
print(value)
PY
}

pidfile() { echo "$var/run/$1.pid"; }

# The pid of a running daemon of this stack, or nothing.
running_pid() {
    local pid
    pid=$(cat "$(pidfile "$1")" 2>/dev/null || true)
    if is_running "$pid" && grep -qaF "$1" "/proc/$pid/cmdline" 2>/dev/null; then
        echo "$pid"
    fi
}

require_binaries() {
    local name
    for name in "${daemons[@]}" squawkctl; do
        if [ ! -x "$bin/$name" ]; then
            echo "stack: $bin/$name is missing; build first (make build)" >&2
            exit 1
        fi
    done
}

# Starts MariaDB and Redis (if not running) and exports what the daemons need to reach them.
# Sets fresh_database=yes when var/servers did not exist before.
start_servers() {
    fresh_database=no
    [ -f "$servers/servers.env" ] || fresh_database=yes
    local want_mysql want_redis
    want_mysql=$(config_value mysql.port)
    want_redis=$(config_value redis.port)
    "$root/scripts/servers.sh" start "$servers" "$want_mysql" "$want_redis"
    # shellcheck source=/dev/null
    . "$servers/servers.env"
    if [ "$SQUAWK_TEST_MYSQL_PORT" != "$want_mysql" ] || [ "$SQUAWK_TEST_REDIS_PORT" != "$want_redis" ]; then
        echo "stack: var/servers was created with MariaDB on $SQUAWK_TEST_MYSQL_PORT and Redis on" \
            "$SQUAWK_TEST_REDIS_PORT; using those (make down && rm -rf var to change them)" >&2
    fi
    export SQUAWK_MYSQL_HOST=$SQUAWK_TEST_MYSQL_HOST
    export SQUAWK_MYSQL_PORT=$SQUAWK_TEST_MYSQL_PORT
    export SQUAWK_MYSQL_USER=$SQUAWK_TEST_MYSQL_USER
    export SQUAWK_MYSQL_PASSWORD=$SQUAWK_TEST_MYSQL_PASSWORD
    export SQUAWK_REDIS_HOST=127.0.0.1
    export SQUAWK_REDIS_PORT=$SQUAWK_TEST_REDIS_PORT
    # Secrets at rest (webhook secrets, platform tokens) are encrypted with a key generated once
    # per checkout and kept under var/.
    if [ -z "${SQUAWK_SECURITY_SECRET_KEY:-}" ]; then
        if [ ! -s "$var/secret.key" ]; then
            (umask 077 && openssl rand -hex 32 >"$var/secret.key")
        fi
        SQUAWK_SECURITY_SECRET_KEY=$(cat "$var/secret.key")
        export SQUAWK_SECURITY_SECRET_KEY
    fi
}

demo_value() {
    # shellcheck source=/dev/null
    [ -f "$demo_env" ] && (. "$demo_env" && echo "${!1:-}")
}

# Creates the demo workspace and keys once per database; later runs reuse them from var/demo.env.
prepare_demo() {
    local workspace="" test_key="" live_key="" password=""
    if [ "$fresh_database" = no ]; then
        workspace=$(demo_value SQUAWK_WORKSPACE_ID || true)
        test_key=$(demo_value SQUAWK_TEST_KEY || true)
        live_key=$(demo_value SQUAWK_LIVE_KEY || true)
        password=$(demo_value SQUAWK_DASHBOARD_PASSWORD || true)
    fi
    if [ -z "$workspace" ] || [ -z "$test_key" ] || [ -z "$live_key" ] || [ -z "$password" ]; then
        workspace=$("$bin/squawkctl" workspace create --name demo)
        test_key=$("$bin/squawkctl" key create --workspace "$workspace" --type test --scopes all)
        live_key=$("$bin/squawkctl" key create --workspace "$workspace" --type live --scopes all)
        # One password for the demo's owner and operator, made here and kept in var/demo.env.
        password=$(openssl rand -hex 12)
        printf '%s' "$password" | "$bin/squawkctl" user create --workspace "$workspace" \
            --email "owner-$workspace@demo.test" --role owner >/dev/null
        printf '%s' "$password" | "$bin/squawkctl" user create --operator \
            --email "operator-$workspace@demo.test" >/dev/null
    fi

    local listen host port
    listen=$(config_value api.listen)
    host=${listen%:*}
    port=${listen##*:}
    case "$host" in "" | 0.0.0.0) host=127.0.0.1 ;; esac
    api_root=http://$host:$port
    base_url=$api_root/v1

    umask 077
    {
        echo "# Written by scripts/stack.sh. \`. var/demo.env\` points curl and squawkctl at the local stack."
        local name
        for name in SQUAWK_BASE_URL SQUAWK_TEST_KEY SQUAWK_LIVE_KEY SQUAWK_WORKSPACE_ID SQUAWK_CONFIG \
            SQUAWK_MYSQL_HOST SQUAWK_MYSQL_PORT SQUAWK_MYSQL_USER SQUAWK_MYSQL_PASSWORD \
            SQUAWK_REDIS_HOST SQUAWK_REDIS_PORT SQUAWK_DASHBOARD_URL SQUAWK_DASHBOARD_OWNER \
            SQUAWK_DASHBOARD_OPERATOR SQUAWK_DASHBOARD_PASSWORD; do
            case "$name" in
            SQUAWK_BASE_URL) value=$base_url ;;
            SQUAWK_DASHBOARD_URL) value=$api_root/dashboard/ ;;
            SQUAWK_DASHBOARD_OWNER) value=owner-$workspace@demo.test ;;
            SQUAWK_DASHBOARD_OPERATOR) value=operator-$workspace@demo.test ;;
            SQUAWK_DASHBOARD_PASSWORD) value=$password ;;
            SQUAWK_TEST_KEY) value=$test_key ;;
            SQUAWK_LIVE_KEY) value=$live_key ;;
            SQUAWK_WORKSPACE_ID) value=$workspace ;;
            *) value=${!name} ;;
            esac
            printf 'export %s=%q\n' "$name" "$value"
        done
    } >"$demo_env.tmp"
    mv "$demo_env.tmp" "$demo_env"
    umask 022
    demo_test_key=$test_key
    demo_live_key=$live_key
    demo_workspace=$workspace
    demo_password=$password
}

prepare() {
    require_binaries
    mkdir -p "$var/run" "$var/log"
    start_servers
    "$bin/squawkctl" migrate
    prepare_demo
}

# Starts one daemon in its own session (so a terminal's Ctrl-C reaches only this script, which
# then stops the daemons in order) and records its pid. OUTPUT is where its log lines go.
start_daemon() {
    local name=$1 output=$2
    setsid "$bin/$name" --config "$config" >>"$output" 2>&1 </dev/null &
    echo $! >"$(pidfile "$name")"
}

# Waits until GET /health answers; fails early, showing its log, when a daemon dies meanwhile.
wait_healthy() {
    local name pid
    for _ in $(seq 1 600); do
        for name in "${daemons[@]}"; do
            pid=$(cat "$(pidfile "$name")" 2>/dev/null || true)
            if ! is_running "$pid"; then
                echo "stack: $name exited during start-up" >&2
                [ -f "$var/log/$name.log" ] && tail -n 20 "$var/log/$name.log" >&2
                return 1
            fi
        done
        if curl -fsS -o /dev/null --max-time 1 "$api_root/health" 2>/dev/null; then
            return 0
        fi
        sleep 0.1
    done
    echo "stack: $api_root/health did not answer within 60 s" >&2
    return 1
}

stop_daemons() {
    local grace
    grace=$(config_value workers.shutdown_grace_seconds)
    stop_pidfile "$(pidfile squawk-api)" 15
    stop_pidfile "$(pidfile squawk-scheduler)" 15
    stop_pidfile "$(pidfile squawk-worker)" $((grace + 10))
}

banner() {
    cat <<TEXT

Squawk is running.
  base URL   $base_url
  test key   $demo_test_key
  live key   $demo_live_key
  config     $config (plus the SQUAWK_* overrides in var/demo.env)
  OpenAPI    $api_root/openapi.json
  dashboard  $api_root/dashboard/
             owner-$demo_workspace@demo.test or operator-$demo_workspace@demo.test,
             password $demo_password

Try the speech job flow (in another shell):
  . var/demo.env
  curl -s -X POST "\$SQUAWK_BASE_URL/audio/text-to-speech" \\
       -H "Authorization: Bearer \$SQUAWK_TEST_KEY" -H 'Content-Type: application/json' \\
       -d '{"text": "Hello from Squawk"}'
  curl -s "\$SQUAWK_BASE_URL/jobs/JOB_ID" -H "Authorization: Bearer \$SQUAWK_TEST_KEY"
  curl -s -o hello.wav "\$SQUAWK_BASE_URL/media/MEDIA_ID/download" -H "Authorization: Bearer \$SQUAWK_TEST_KEY"
Or an image card, a video or a deck, made offline (docs/api/generation.md):
  curl -s -X POST "\$SQUAWK_BASE_URL/images/generate" \\
       -H "Authorization: Bearer \$SQUAWK_TEST_KEY" -H 'Content-Type: application/json' \\
       -d '{"template": "quote", "text": "Ship it.", "size": "1080x1080"}'
TEXT
}

run_foreground() {
    local name
    for name in "${daemons[@]}"; do
        if [ -n "$(running_pid "$name")" ]; then
            echo "stack: $name is already running (make up?); stop it with make down first" >&2
            exit 1
        fi
    done
    local servers_were_running=no
    is_running "$(cat "$servers/mysql/mysql.pid" 2>/dev/null || true)" && servers_were_running=yes

    stopping=no
    stop_run() {
        [ "$stopping" = yes ] && return
        stopping=yes
        echo "stack: stopping" >&2
        stop_daemons
        wait 2>/dev/null || true
        if [ "$servers_were_running" = no ]; then
            "$root/scripts/servers.sh" stop "$servers"
        fi
    }
    trap 'stop_run; exit 0' INT TERM
    trap stop_run EXIT

    prepare
    # The daemons share the terminal; each line carries the daemon's name. The prefixing process
    # ignores Ctrl-C so that the daemons' last lines during shutdown still have a reader.
    for name in "${daemons[@]}"; do
        start_daemon "$name" >(trap '' INT && exec sed -u "s/^/$name | /")
    done
    wait_healthy
    banner
    echo "Ctrl-C stops the stack."
    local pids=()
    for name in "${daemons[@]}"; do pids+=("$(cat "$(pidfile "$name")")"); done
    wait -n "${pids[@]}" || true
    echo "stack: a daemon exited; stopping the rest" >&2
    exit 1
}

run_background() {
    prepare
    local name started=()
    for name in "${daemons[@]}"; do
        if [ -z "$(running_pid "$name")" ]; then
            start_daemon "$name" "$var/log/$name.log"
            started+=("$name")
        fi
    done
    wait_healthy
    if [ ${#started[@]} -gt 0 ]; then
        echo "stack: started ${started[*]} (logs in var/log/, pids in var/run/)"
    else
        echo "stack: already up"
    fi
    banner
    echo "make down stops it."
}

case "$cmd" in
run) run_foreground ;;
up) run_background ;;
down)
    mkdir -p "$var/run"
    stop_daemons
    if [ -d "$servers" ]; then "$root/scripts/servers.sh" stop "$servers"; fi
    echo "stack: down"
    ;;
*)
    echo "usage: stack.sh run|up|down" >&2
    exit 2
    ;;
esac
