# Process helpers shared by the scripts that start and stop local servers and daemons.
# Sourced, not run.

# A free TCP port on loopback.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# True while PID is alive. A stopped daemon can linger as a zombie under a late-reaping PID 1,
# so a zombie counts as gone.
is_running() {
    local pid=$1
    [ -n "$pid" ] && [ -e "/proc/$pid" ] && ! grep -q '^[0-9]* ([^)]*) Z' "/proc/$pid/stat" 2>/dev/null
}

# Waits up to SECONDS for PID to end, then kills it hard.
wait_gone() {
    local pid=$1 seconds=${2:-10}
    local tries=$((seconds * 20))
    for _ in $(seq 1 "$tries"); do
        is_running "$pid" || return 0
        sleep 0.05
    done
    kill -9 "$pid" 2>/dev/null || true
}

# Stops the process named in PIDFILE (SIGTERM, then SIGKILL after SECONDS) and removes the file.
stop_pidfile() {
    local pidfile=$1 seconds=${2:-10}
    [ -f "$pidfile" ] || return 0
    local pid
    pid=$(cat "$pidfile" 2>/dev/null || true)
    if is_running "$pid"; then
        kill "$pid" 2>/dev/null || true
        wait_gone "$pid" "$seconds"
    fi
    rm -f "$pidfile"
}
