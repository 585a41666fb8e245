#!/usr/bin/env python3
"""Merges the benchmarks' result files (OUT_DIR/NAME.json) into OUT_DIR/results.json and a Markdown
table OUT_DIR/results.md: medians with min-max for Squawk and its peer, and their ratio (> 1 is
Squawk ahead, whichever way the unit runs). Below the table, one line per target says whether it
was met in every round, only in the median, or missed, so a regression shows at a glance.

A target is read from its text (bench::Series::target):
  "ratio >= X"        the ratio, round by round (Squawk's value against the peer's of that round)
  "<= Kx ..."         Squawk's value at most K times the peer's (lower is better)
  ">= N", "<= N", "< N", "> N" Squawk's own value; words after the number are ignored
Anything else ("reported", "-") is no target."""
import json
import operator
import os
import re
import statistics
import sys
from pathlib import Path

COMPARE = {">=": operator.ge, "<=": operator.le, ">": operator.gt, "<": operator.lt}


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


def pair_ratio(ours, theirs, better):
    if ours == 0 or theirs == 0:
        return None
    return ours / theirs if better == "higher" else theirs / ours


def goal(text):
    """(what, compare, limit) for a target text, or None: `what` is "ratio", "times" or "value"."""
    text = (text or "").strip()
    m = re.match(r"ratio\s*(>=|<=|>|<)\s*([\d.,]+)", text)
    if m:
        return "ratio", COMPARE[m[1]], float(m[2].replace(",", ""))
    m = re.match(r"(>=|<=|>|<)\s*([\d.,]+)x\b", text)
    if m:
        return "times", COMPARE[m[1]], float(m[2].replace(",", ""))
    m = re.match(r"(>=|<=|>|<)\D*?([\d][\d.,]*)", text)
    if m:
        return "value", COMPARE[m[1]], float(m[2].replace(",", ""))
    return None


def verdict(row):
    """A summary line for a row with a target, or None."""
    wanted = goal(row.get("target"))
    if not wanted:
        return None
    what, compare, limit = wanted
    ours = row.get("squawk") or []
    theirs = (row.get("peer") or {}).get("values") or []
    if what == "value":
        rounds = ours
        median = statistics.median(ours) if ours else None
    else:
        if not ours or len(ours) != len(theirs):
            return f"NO DATA  {row['name']} ({row['target']}): no peer value per round"
        if what == "ratio":
            rounds = [pair_ratio(a, b, row.get("better")) for a, b in zip(ours, theirs)]
            median = ratio(row)
        else:
            rounds = [a / b if b else None for a, b in zip(ours, theirs)]
            median = statistics.median(ours) / statistics.median(theirs) if statistics.median(theirs) else None
    if not rounds or median is None or any(r is None for r in rounds):
        return f"NO DATA  {row['name']} ({row['target']})"
    met = sum(1 for r in rounds if compare(r, limit))
    shown = ", ".join(f"{r:,.2f}" for r in rounds)
    if met == len(rounds):
        state = "MET in every round"
    elif compare(median, limit):
        state = f"MET in the median only ({met}/{len(rounds)} rounds)"
    else:
        state = f"MISSED ({met}/{len(rounds)} rounds)"
    return f"{state}: {row['name']} ({row['target']}; by round {shown})"


def main():
    out_dir = Path(sys.argv[1])
    merged = {}
    lines = ["| benchmark | unit | Squawk median (min-max) | peer | peer median (min-max) | ratio | target |",
             "|---|---|---|---|---|---|---|"]
    notes = []
    for name in sys.argv[2:]:
        path = out_dir / f"{name}.json"
        if not path.exists():
            lines.append(f"| {name}: no results (the benchmark failed) | | | | | | |")
            continue
        data = json.loads(path.read_text())
        merged[name] = data
        for row in data.get("results", []):
            r = ratio(row)
            peer = row.get("peer") or {}
            row["ratio"] = r
            lines.append("| {} | {} | {} | {} | {} | {} | {} |".format(
                row["name"], row["unit"], spread(row.get("squawk")), peer.get("name", "-"),
                spread(peer.get("values")), f"{r:.2f}" if r is not None else "-",
                row.get("target", "-")))
        notes += [f"{name}: {n}" for n in data.get("notes", [])]
    quota = os.environ.get("BENCH_CPU_QUOTA")
    text = "# Squawk benchmarks\n\n"
    if quota:
        text += f"Every process of the run, peers included, shared a CPU quota of {quota} core(s).\n\n"
    text += "\n".join(lines) + "\n"
    verdicts = [v for data in merged.values() for row in data.get("results", [])
                if (v := verdict(row))]
    if verdicts:
        text += "\n## Targets\n\n" + "\n".join(f"- {v}" for v in verdicts) + "\n"
    if notes:
        text += "\n" + "\n".join(f"- {n}" for n in notes) + "\n"
    (out_dir / "results.md").write_text(text)
    (out_dir / "results.json").write_text(json.dumps(merged, indent=2) + "\n")
    print(text)


if __name__ == "__main__":
    main()
