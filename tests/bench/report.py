#!/usr/bin/env python3
"""Merges the benchmarks' result files (OUT_DIR/NAME.json) into OUT_DIR/results.json and a Markdown
report OUT_DIR/results.md: medians with min-max for Squawk and its peer, and their ratio (> 1 is
Squawk ahead, whichever way the unit runs); then one line per target of TARGETS below, judged
round by round against the current target and the raised one of issue 24 (met in every round, met
in the median, missed), so a regression shows at a glance. Under BENCH_CPU_QUOTA the report names
the CPU quota of the cgroup it runs in, and how often that quota throttled the run.

    report.py OUT_DIR NAME...
    report.py --side-by-side DIR...   targets of earlier runs' results.json, one column each
                                      (build/bench build/bench/cpu-100pct build/bench/cpu-50pct)"""
import json
import operator
import os
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

COMPARE = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt}


@dataclass(frozen=True)
class Figure:
    """One number per round read from a benchmark's series.

    kind "value": Squawk's value. "ratio": Squawk against the peer of the same round, > 1 when
    Squawk is ahead whichever way the unit runs; `peers` names further series of the same bench
    whose peer values count too, the best of them per round (a peer at its best concurrency).
    "times": Squawk's value divided by the peer's (a cost at most K times the peer's)."""
    bench: str
    series: str
    label: str
    kind: str = "value"
    peers: tuple = ()


@dataclass(frozen=True)
class Check:
    figure: Figure
    compare: str
    limit: float

    def text(self):
        return f"{self.figure.label} {self.compare} {self.limit:g}"


@dataclass(frozen=True)
class Target:
    """`current` None: only reported. `raised` None: issue 24 does not raise it."""
    name: str
    current: tuple
    raised: tuple = None


_JOBS_C10 = "50,000 no-op jobs, one worker process vs BullMQ concurrency 10"
_JOBS_C100 = "50,000 no-op jobs, one worker process vs BullMQ concurrency 100"
_JOBS = Figure("jobs", _JOBS_C10, "ratio to BullMQ's best", "ratio", (_JOBS_C100,))
_ADD_P99 = Figure("jobs", "add-to-start latency p99 at 500 jobs/s (Squawk through HTTP + MySQL)",
                  "ratio to BullMQ", "ratio")
_JOB_GET = Figure("jobs", "GET /jobs/{job_id}, wrk 64 connections", "ratio to nginx", "ratio")
_JOB_GET_P99 = Figure("jobs", "GET /jobs/{job_id} p99, wrk 64 connections", "p99 ms")
_WORKER_RSS = Figure("jobs", "worker peak RSS with 1,000 tasks in flight (2 threads x 500 fibers)",
                     "peak RSS MiB")
_ME = Figure("request_path", "GET /v1/me, test key, whole request path, 64 connections",
             "ratio to nginx", "ratio")
_ME_P99 = Figure("request_path", "GET /v1/me p99, 64 connections", "p99 ms")
_POSTS = Figure("social_posts",
                "POST /v1/social/posts, test key, new content each, 64 connections", "req/s")
_POSTS_P99 = Figure("social_posts", "POST /v1/social/posts p99, 64 connections", "p99 ms")
_BURST = Figure("social_schedule",
                "10,000 posts due in one second: start of the second to last send", "last send ms")
_LATENESS = Figure("social_schedule", "1,000 posts due in one second: lateness p99", "p99 ms")
_WEBHOOKS = Figure("webhooks", "webhook deliveries, 20k at concurrency 100", "ratio to undici",
                   "ratio")
_SPREAD_LATENESS = Figure("social_schedule",
                          "1,000 posts due in one second over 11 platforms: lateness p99", "p99 ms")
_SPREAD_BURST = Figure("social_schedule", "10,000 posts due in one second over 11 platforms: "
                       "start of the second to last send", "last send ms")
_SLOW_RECEIVER = Figure("webhooks", "webhook deliveries to a receiver answering after 1 s, "
                        "1,000 fibers", "deliveries/s")
_ARTICLES = Figure("generation", "articles, OpenAI fake answering at once: backlog of 3000 "
                   "drained by one worker (2 threads x 128 fibers)", "jobs/s")
_UPLOAD = Figure("upload", "200 MB direct upload (multipart, curl -T)", "ratio to nginx", "ratio")
_UPLOAD_RSS = Figure("upload", "squawk-api peak RSS growth over the runs", "growth MiB")
_VIDEO_X_RSS = Figure("video_publish",
                      "squawk-worker peak RSS growth, 200 MB video to X (chunked)", "growth MiB")
_VIDEO_YOUTUBE_RSS = Figure("video_publish", "squawk-worker peak RSS growth, 200 MB video to "
                            "YouTube (resumable)", "growth MiB")
_SHORT = Figure("shorts", "shorts: 60 s 1080x1920 karaoke short of a 60 s 1920x1080 source, job "
                "wall time after transcription", "times the bare command", "times")

# Every target `make bench` judges: issue 24's table first, then those of other benchmarks.
TARGETS = (
    Target("durable no-op jobs vs BullMQ at its best concurrency", (Check(_JOBS, ">=", 1.0),),
           (Check(_JOBS, ">=", 1.5),)),
    Target("add-to-start p99 at 500 jobs/s, no worse than BullMQ", (Check(_ADD_P99, ">=", 1.0),)),
    Target("GET /jobs/{id} vs nginx, 64 connections", (Check(_JOB_GET, ">=", 0.5),),
           (Check(_JOB_GET, ">=", 0.8), Check(_JOB_GET_P99, "<", 10))),
    Target("GET /v1/me vs nginx, 64 connections", (Check(_ME, ">=", 0.5), Check(_ME_P99, "<", 10)),
           (Check(_ME, ">=", 0.8), Check(_ME_P99, "<", 10))),
    Target("POST /v1/social/posts, 64 connections", None,
           (Check(_POSTS, ">=", 3000), Check(_POSTS_P99, "<", 50))),
    Target("10,000 posts due in one second, last send", (Check(_BURST, "<=", 1500),),
           (Check(_BURST, "<=", 1000),)),
    Target("1,000 posts due in one second, lateness p99", (Check(_LATENESS, "<=", 50),)),
    Target("webhook deliveries vs undici, 20k at concurrency 100", (Check(_WEBHOOKS, ">=", 1.0),)),
    Target("worker peak RSS, 1,000 tasks in flight", (Check(_WORKER_RSS, "<=", 64),)),
    Target("1,000 posts over 11 platforms, lateness p99", (Check(_SPREAD_LATENESS, "<=", 50),)),
    Target("10,000 posts over 11 platforms, last send", (Check(_SPREAD_BURST, "<=", 1500),)),
    Target("webhooks to a receiver answering after 1 s", (Check(_SLOW_RECEIVER, ">=", 900),)),
    Target("articles backlog drained by one worker", (Check(_ARTICLES, ">=", 1000),)),
    Target("200 MB direct upload vs nginx", (Check(_UPLOAD, ">=", 0.5),)),
    Target("squawk-api peak RSS growth over 200 MB uploads", (Check(_UPLOAD_RSS, "<=", 64),)),
    Target("worker peak RSS growth, 200 MB video to X", (Check(_VIDEO_X_RSS, "<=", 32),)),
    Target("worker peak RSS growth, 200 MB video to YouTube",
           (Check(_VIDEO_YOUTUBE_RSS, "<=", 32),)),
    Target("karaoke short vs the bare ffmpeg command", (Check(_SHORT, "<=", 1.15),)),
)


def spread(values):
    if not values:
        return "-"
    return f"{statistics.median(values):,.2f} ({min(values):,.2f}-{max(values):,.2f})"


def ratio(row):
    ours = row.get("squawk") or []
    theirs = (row.get("peer") or {}).get("values") or []
    if not ours or not theirs:
        return None
    a, b = statistics.median(ours), statistics.median(theirs)
    if a == 0 or b == 0:
        return None
    return a / b if row.get("better") == "higher" else b / a


def rounds_of(figure, rows):
    """The figure's value in each round, or a string saying why there is none."""
    row = rows.get(figure.series)
    if row is None:
        return f"no series '{figure.series}'"
    ours = row.get("squawk") or []
    if not ours:
        return "no values"
    if figure.kind == "value":
        return list(ours)
    peer_rows = [row] + [rows.get(name) for name in figure.peers]
    if any(r is None for r in peer_rows):
        return "a peer series is missing"
    peers = [(r.get("peer") or {}).get("values") or [] for r in peer_rows]
    if any(len(p) != len(ours) for p in peers):
        return "no peer value in every round"
    higher = row.get("better") == "higher"
    values = []
    for i, mine in enumerate(ours):
        theirs = [p[i] for p in peers]
        best = max(theirs) if higher else min(theirs)
        if mine == 0 or best == 0:
            return "a zero value"
        if figure.kind == "times":
            values.append(mine / best)
        else:
            values.append(mine / best if higher else best / mine)
    return values


def judge(checks, figures):
    """'met in every round' / 'met in the median' / 'missed' for CHECKS, or why it cannot say."""
    for check in checks:
        if isinstance(figures[check.figure], str):
            return f"no data ({figures[check.figure]})"
    n = min(len(figures[c.figure]) for c in checks)
    met = sum(1 for i in range(n)
              if all(COMPARE[c.compare](figures[c.figure][i], c.limit) for c in checks))
    if met == n:
        return "met in every round"
    if all(COMPARE[c.compare](statistics.median(figures[c.figure]), c.limit) for c in checks):
        return f"met in the median ({met} of {n} rounds)"
    return f"missed ({met} of {n} rounds)"


def shown(figure, values):
    if isinstance(values, str):
        return f"{figure.label}: -"
    by_round = ", ".join(f"{v:,.2f}" for v in values)
    if len(values) == 1:
        return f"{figure.label} {by_round}"
    return f"{figure.label} {by_round} (median {statistics.median(values):,.2f})"


def judged(merged):
    """(target, its figures per round, current verdict, raised verdict) for each target of the
    benchmarks in MERGED; a verdict is "" where there is no such target."""
    for target in TARGETS:
        checks = (target.current or ()) + (target.raised or ())
        if not any(c.figure.bench in merged for c in checks):
            continue
        rows = {}
        for c in checks:
            data = merged.get(c.figure.bench) or {}
            rows.update({r["name"]: r for r in data.get("results", [])})
        figures = {c.figure: rounds_of(c.figure, rows) for c in checks}
        yield (target, figures, judge(target.current, figures) if target.current else "",
               judge(target.raised, figures) if target.raised else "")


def summary(merged):
    """The target table's lines, for the targets of the benchmarks that ran."""
    lines = ["| target | figures by round | current target | verdict | raised target (issue 24) "
             "| verdict |",
             "|---|---|---|---|---|---|"]
    for target, figures, current_verdict, raised_verdict in judged(merged):
        current = ", ".join(c.text() for c in target.current) if target.current else "reported"
        raised = ", ".join(c.text() for c in target.raised) if target.raised else "not raised"
        numbers = "; ".join(shown(f, v) for f, v in figures.items())
        lines.append(f"| {target.name} | {numbers} | {current} | {current_verdict} | {raised} | "
                     f"{raised_verdict} |")
    return lines if len(lines) > 2 else []


def side_by_side(dirs):
    """The targets of several runs' results.json (an unlimited run and its BENCH_CPU_QUOTA runs)
    in one table: each run's medians and verdicts in its own column."""
    runs = [(d, json.loads((d / "results.json").read_text())) for d in dirs]
    cells = {}
    for column, (_, merged) in enumerate(runs):
        for target, figures, current, raised in judged(merged):
            medians = "; ".join(f"{f.label} -" if isinstance(v, str) else
                                f"{f.label} {statistics.median(v):,.2f}"
                                for f, v in figures.items())
            text = f"{medians}: {current or 'reported'}" + (f"; raised: {raised}" if raised else "")
            cells.setdefault(target.name, [""] * len(runs))[column] = text
    names = [d.name if d.name.startswith("cpu-") else "no quota" for d, _ in runs]
    lines = ["| target (medians) | " + " | ".join(names) + " |",
             "|---|" + "---|" * len(runs)]
    lines += [f"| {name} | " + " | ".join(row) + " |" for name, row in cells.items()]
    return "# Squawk benchmarks side by side\n\n" + "\n".join(lines) + "\n"


def cgroup_cpu_dir():
    """The cgroup directory whose CPU quota applies to this process, v1 or v2."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "cpu" in controllers.split(","):
            return Path("/sys/fs/cgroup/cpu" + path)
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        if line.startswith("0::"):
            return Path("/sys/fs/cgroup" + line[3:])
    return None


def durability_in_force():
    """A sentence when MariaDB did not flush its redo log at each commit (scripts/servers.sh)."""
    flush = os.environ.get("MARIADB_FLUSH_LOG_AT_TRX_COMMIT", "1")
    if flush == "1":
        return ""
    return (f"MariaDB flushed its redo log once a second, not at each commit "
            f"(MARIADB_FLUSH_LOG_AT_TRX_COMMIT={flush}): an accepted job could be lost in a power "
            f"loss, as a job in the peers' Redis could.\n\n")


def quota_in_force():
    """A sentence on the CPU quota this run had, read from its cgroup."""
    percent = os.environ.get("BENCH_CPU_QUOTA")
    if not percent:
        return ""
    how = os.environ.get("BENCH_CPU_QUOTA_METHOD", "")
    text = (f"Every process of the run, servers and peers included, shared one CPU quota of "
            f"{percent} % of one core (BENCH_CPU_QUOTA={percent}; {how}).")
    cgroup = cgroup_cpu_dir()
    try:
        if (cgroup / "cpu.max").exists():
            quota, period = (cgroup / "cpu.max").read_text().split()
        else:
            quota = (cgroup / "cpu.cfs_quota_us").read_text().strip()
            period = (cgroup / "cpu.cfs_period_us").read_text().strip()
        stat = dict(line.split() for line in (cgroup / "cpu.stat").read_text().splitlines())
    except (OSError, TypeError, ValueError):
        return text + " Its cgroup could not be read to confirm it.\n\n"
    if quota in ("max", "-1"):
        return text + f" But the cgroup it ran in ({cgroup}) has no quota.\n\n"
    text += (f" Its cgroup allowed {quota} µs per {period} µs = "
             f"{100 * int(quota) / int(period):.0f} % of one core")
    if "nr_throttled" in stat:
        text += (f", and held the run back in {int(stat['nr_throttled']):,} of "
                 f"{int(stat['nr_periods']):,} periods")
    return text + ".\n\n"


def main():
    if sys.argv[1] == "--side-by-side":
        print(side_by_side([Path(d) for d in sys.argv[2:]]), end="")
        return
    out_dir = Path(sys.argv[1])
    merged = {}
    lines = ["| benchmark | unit | Squawk median (min-max) | peer | peer median (min-max) "
             "| ratio |", "|---|---|---|---|---|---|"]
    notes = []
    for name in sys.argv[2:]:
        path = out_dir / f"{name}.json"
        if not path.exists():
            lines.append(f"| {name}: no results (the benchmark failed) | | | | | |")
            continue
        data = json.loads(path.read_text())
        merged[name] = data
        for row in data.get("results", []):
            r = ratio(row)
            peer = row.get("peer") or {}
            row["ratio"] = r
            lines.append("| {} | {} | {} | {} | {} | {} |".format(
                row["name"], row["unit"], spread(row.get("squawk")), peer.get("name", "-"),
                spread(peer.get("values")), f"{r:.2f}" if r is not None else "-"))
        notes += [f"{name}: {n}" for n in data.get("notes", [])]
    text = "# Squawk benchmarks\n\n" + quota_in_force() + durability_in_force()
    text += "\n".join(lines) + "\n"
    targets = summary(merged)
    if targets:
        text += "\n## Targets\n\n" + "\n".join(targets) + "\n"
    if notes:
        text += "\n" + "\n".join(f"- {n}" for n in notes) + "\n"
    (out_dir / "results.md").write_text(text)
    (out_dir / "results.json").write_text(json.dumps(merged, indent=2) + "\n")
    print(text)


if __name__ == "__main__":
    main()
