#!/usr/bin/env python3
"""CPU time per process over a benchmark, from /proc/<pid>/stat (user + system ticks).

    cpu_time.py --out FILE [--env NAME=VALUE] [--pid PID]... [--interval SECONDS]

Watches the processes given by --pid and every process with NAME=VALUE in its environment (what
a bench and everything it starts inherit) or whose parent is watched, until SIGTERM or SIGINT;
then writes FILE, a Markdown table of CPU seconds per command and per process. Time a process
used before the watch began is not counted. A process that ends between two samples loses at
most one interval of its time, so the figures are lower bounds for short-lived processes."""
import argparse
import os
import signal
import time
from collections import defaultdict
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def read_stat(pid):
    """(command, parent pid, start time in ticks, CPU ticks) of PID, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # The command sits in parentheses and may itself hold spaces or parentheses.
    command = text[text.index("(") + 1:text.rindex(")")]
    fields = text[text.rindex(")") + 2:].split()
    # Fields after the command, counted from state (field 3 of proc(5)): ppid 4, utime 14,
    # stime 15, starttime 22.
    return command, int(fields[1]), int(fields[19]), int(fields[11]) + int(fields[12])


def has_env(pid, marker):
    try:
        return marker in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def command_line(pid):
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return ""
    return raw.replace(b"\0", b" ").decode(errors="replace").strip()[:100]


class Watch:
    def __init__(self, marker, pids):
        self.marker = marker.encode() if marker else None
        self.seen = {}  # (pid, start) -> {"command", "line", "first", "last", "new"}
        self.tracked = set()  # pids of self.seen, for their children
        self.ignored = set()  # (pid, start) of processes that are not the bench's
        self.own = os.getpid()
        for pid in pids:
            stat = read_stat(pid)
            if stat:
                command, _, start, ticks = stat
                self.seen[(pid, start)] = {"command": command, "line": command_line(pid),
                                           "first": ticks, "last": ticks, "new": False}
                self.tracked.add(pid)

    def sample(self, baseline=False):
        """Reads every process once; with BASELINE, those found now were running before the
        watch, so only their time from now on counts."""
        # In pid order, so that a parent is usually placed before its children are looked at.
        for pid in sorted(int(e.name) for e in os.scandir("/proc") if e.name.isdigit()):
            if pid == self.own:
                continue
            stat = read_stat(pid)
            if not stat:
                continue
            command, parent, start, ticks = stat
            key = (pid, start)
            if key in self.seen:
                self.seen[key]["last"] = ticks
            elif key not in self.ignored:
                # Children count too: some daemons (nginx's workers) clear their environment.
                if parent in self.tracked or (self.marker and has_env(pid, self.marker)):
                    # One that appears after the baseline started during the watch: all of
                    # its time counts.
                    self.seen[key] = {"command": command, "line": command_line(pid),
                                      "first": ticks if baseline else 0, "last": ticks,
                                      "new": not baseline}
                    self.tracked.add(pid)
                else:
                    self.ignored.add(key)

    def table(self, seconds):
        rows = [(key[0], p["command"], p["line"], (p["last"] - p["first"]) / TICKS, p["new"])
                for key, p in self.seen.items()]
        total = sum(r[3] for r in rows) or 1.0
        by_command = defaultdict(lambda: [0.0, 0])
        for _, command, _, used, _ in rows:
            by_command[command][0] += used
            by_command[command][1] += 1
        out = [f"# CPU time per process\n\nWatched for {seconds:.1f} s; {len(rows)} processes; "
               f"{total:.2f} CPU s in all ({total / max(seconds, 0.001):.2f} cores on average).\n",
               "| command | processes | CPU s | share |", "|---|---|---|---|"]
        for command, (used, count) in sorted(by_command.items(), key=lambda kv: -kv[1][0]):
            out.append(f"| {command} | {count} | {used:.2f} | {100 * used / total:.1f} % |")
        out += ["", "| pid | command line | CPU s | |", "|---|---|---|---|"]
        for pid, _, line, used, new in sorted(rows, key=lambda r: -r[3]):
            if used > 0:
                origin = "started during the run" if new else "running before"
                out.append(f"| {pid} | `{line}` | {used:.2f} | {origin} |")
        return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--env", default="", help="NAME=VALUE that marks the bench's processes")
    parser.add_argument("--pid", type=int, action="append", default=[])
    parser.add_argument("--interval", type=float, default=0.1)
    args = parser.parse_args()

    stop = []
    signal.signal(signal.SIGTERM, lambda *_: stop.append(True))
    signal.signal(signal.SIGINT, lambda *_: stop.append(True))
    watch = Watch(args.env, args.pid)
    began = time.monotonic()
    watch.sample(baseline=True)
    while not stop:
        watch.sample()
        time.sleep(args.interval)
    watch.sample()
    Path(args.out).write_text(watch.table(time.monotonic() - began))


if __name__ == "__main__":
    main()
