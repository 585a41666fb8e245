# shellcheck shell=bash
# A CPU quota shared by a whole process tree, for `BENCH_CPU_QUOTA`: every process started under
# it, daemons included, draws on one budget of PERCENT % of one core, as on a small VM. Sourced.
#
# Ways, tried in this order:
#   1. a cgroup made directly in the cgroup v1 `cpu` hierarchy (cpu.cfs_quota_us) or in the
#      cgroup v2 root (cpu.max): needs write access there, as root has on this project's machines;
#   2. `systemd-run --scope -p CPUQuota=` (with `--user` when not root): where systemd manages the
#      cgroups, as on a developer's desktop.

# Prints why PERCENT is not a usable quota, and fails; silent when it is.
cpu_quota_invalid() {
    local percent=$1 most=$(($(nproc) * 100))
    if ! [[ $percent =~ ^[0-9]+$ ]] || [ "$percent" -lt 10 ] || [ "$percent" -gt "$most" ]; then
        echo "BENCH_CPU_QUOTA is a whole percent of one core from 10 to $most (100 = one core," \
            "50 = half of one), not '$percent'" >&2
        return 0
    fi
    return 1
}

# The cgroup (v1 cpu controller) this process is in, as a directory.
cpu_quota_v1_current() {
    local path
    path=$(awk -F: '$2 ~ /(^|,)cpu(,|$)/ {print $3}' /proc/self/cgroup)
    echo "/sys/fs/cgroup/cpu${path%/}"
}

# The quota's accounting period in µs. A process that used its share waits for the next period,
# so a period of the default 100 ms put 50 ms into every throttled request's latency (nginx's p99
# under a quota of one core read 50 ms); 10 ms keeps that wait near a slow core's.
CPU_QUOTA_PERIOD_US=10000

# Makes a cgroup limited to PERCENT and prints its directory; fails quietly when this process may
# not make one.
cpu_quota_make_cgroup() {
    local percent=$1 period=$CPU_QUOTA_PERIOD_US quota dir
    quota=$((percent * period / 100))
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        grep -qw cpu /sys/fs/cgroup/cgroup.controllers || return 1
        grep -qw cpu /sys/fs/cgroup/cgroup.subtree_control ||
            echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || return 1
        dir=/sys/fs/cgroup/squawk-bench-$$
        mkdir "$dir" 2>/dev/null || return 1
        if ! echo "$quota $period" >"$dir/cpu.max" 2>/dev/null; then
            rmdir "$dir"
            return 1
        fi
    elif [ -f /sys/fs/cgroup/cpu/cpu.cfs_quota_us ]; then
        dir=$(cpu_quota_v1_current)/squawk-bench-$$
        mkdir "$dir" 2>/dev/null || return 1
        if ! { echo "$period" >"$dir/cpu.cfs_period_us" &&
            echo "$quota" >"$dir/cpu.cfs_quota_us"; } 2>/dev/null; then
            rmdir "$dir"
            return 1
        fi
    else
        return 1
    fi
    echo "$dir"
}

# Removes DIR once its processes are gone (an exiting daemon can take a moment to leave it).
cpu_quota_remove_cgroup() {
    local dir=$1
    for _ in $(seq 1 50); do
        rmdir "$dir" 2>/dev/null && return 0
        sleep 0.1
    done
    echo "cpu quota: $dir still has processes; remove it with rmdir once they end" >&2
}

# Runs COMMAND... with every process it starts under one quota of PERCENT % of one core, and
# returns its exit code. BENCH_CPU_QUOTA_METHOD tells the command how the quota is held.
cpu_quota_run() {
    local percent=$1 dir status=0
    shift
    if cpu_quota_invalid "$percent"; then return 2; fi
    if dir=$(cpu_quota_make_cgroup "$percent"); then
        BENCH_CPU_QUOTA_METHOD="cgroup $dir" \
            bash -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' quota "$dir" "$@" ||
            status=$?
        cpu_quota_remove_cgroup "$dir"
        return "$status"
    fi
    if command -v systemd-run >/dev/null && [ -d /run/systemd/system ]; then
        local user=()
        [ "$(id -u)" -eq 0 ] || user=(--user)
        BENCH_CPU_QUOTA_METHOD="systemd-run --scope -p CPUQuota=$percent%" \
            systemd-run "${user[@]}" --scope --quiet --collect -p "CPUQuota=$percent%" \
            -p "CPUQuotaPeriodSec=$((CPU_QUOTA_PERIOD_US / 1000))ms" -- "$@" ||
            status=$?
        return "$status"
    fi
    echo "BENCH_CPU_QUOTA: no way to limit CPU here: no writable cgroup cpu controller under" \
        "/sys/fs/cgroup (needs root) and no running systemd for systemd-run --scope" >&2
    return 2
}
