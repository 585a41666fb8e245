# A CPU quota shared by a process tree: a cgroup whose members together get at most CORES cores'
# worth of CPU time (cgroup v2 cpu.max, or v1 cpu.cfs_quota_us). Needs write access to the cgroup
# hierarchy (root). Sourced, not run.

# Creates the cgroup for CORES (e.g. 1 or 0.5) and prints its directory.
cpu_quota_create() {
    local cores=$1 period=100000 quota dir
    quota=$(python3 -c "import sys; print(max(1000, int(float(sys.argv[1]) * 100000)))" "$cores")
    if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
        dir=/sys/fs/cgroup/squawk-bench-$$
        echo +cpu >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
        mkdir "$dir"
        echo "$quota $period" >"$dir/cpu.max"
    elif [ -d /sys/fs/cgroup/cpu ]; then
        dir=/sys/fs/cgroup/cpu/squawk-bench-$$
        mkdir "$dir"
        echo "$period" >"$dir/cpu.cfs_period_us"
        echo "$quota" >"$dir/cpu.cfs_quota_us"
    else
        echo "cpu quota: no cgroup cpu controller under /sys/fs/cgroup" >&2
        return 1
    fi
    echo "$dir"
}

# Removes the cgroup once every process in it has ended.
cpu_quota_remove() {
    rmdir "$1" 2>/dev/null || true
}
