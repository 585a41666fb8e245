# Process helpers shared by the scripts that start and stop local servers and daemons.
# Sourced, not run.

# A free TCP port on loopback, below the kernel's ephemeral range: a port from that range can be
# taken by an outgoing connection before the server it was meant for binds it.
free_port() {
    python3 - <<'PY'
import random, socket
low = int(open("/proc/sys/net/ipv4/ip_local_port_range").read().split()[0])
high = max(low, 2049) - 1
for _ in range(200):
    port = random.randint(max(1024, high - 12000), high)
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        continue
    finally:
        s.close()
    print(port)
    break
else:
    raise SystemExit("no free port below the ephemeral range")
PY
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
