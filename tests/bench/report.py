#!/usr/bin/env python3
"""Merges the benchmarks' result files (OUT_DIR/NAME.json) into OUT_DIR/results.json and a Markdown
table OUT_DIR/results.md: medians with min-max for Squawk and its peer, and their ratio (> 1 is
Squawk ahead, whichever way the unit runs)."""
import json
import statistics
import sys
from pathlib import Path


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
    text = "# Squawk benchmarks\n\n" + "\n".join(lines) + "\n"
    if notes:
        text += "\n" + "\n".join(f"- {n}" for n in notes) + "\n"
    (out_dir / "results.md").write_text(text)
    (out_dir / "results.json").write_text(json.dumps(merged, indent=2) + "\n")
    print(text)


if __name__ == "__main__":
    main()
