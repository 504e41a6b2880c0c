#!/usr/bin/env python3
"""Medians of scripts/first-launch.sh's runs, as a table in a section of docs/benchmarks.md.

Reads lines such as `cold overlapped cuda:0, 32 programs: select 16.4, wait for context 0.0,
compile and load 18.3, launch and download 58.7, first launch 93.4 ms (right)`.
Usage: first_launch_report.py LOG --markdown FILE --section NAME
"""
import argparse
import datetime
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (beside this file)

LINE = re.compile(r"^(cold|warm) (overlapped|sequential) (\S+), (\d+) programs: (.*) ms \((\w+)\)$")
COLUMNS = ["select", "wait for context", "compile and load", "launch and download", "first launch"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("log")
    parser.add_argument("--markdown")
    parser.add_argument("--section")
    args = parser.parse_args()
    runs, device, wrong = {}, "?", 0
    for line in open(args.log):
        m = LINE.match(line.strip())
        if not m:
            continue
        cache, way, device, programs, values, verdict = m.groups()
        wrong += verdict != "right"
        fields = dict(re.findall(r"([a-z ]+) ([0-9.]+)", values))
        fields = {k.strip(): float(v) for k, v in fields.items()}
        runs.setdefault((int(programs), cache, way), []).append(fields)
    if not runs or wrong:
        sys.exit(f"first_launch_report: {len(runs)} ways parsed, {wrong} wrong results in {args.log}")
    reps = min(len(r) for r in runs.values())
    lines = [f"<!-- {args.section}-begin -->",
             f"Measured {datetime.date.today().isoformat()} on `{device}`; each run a fresh process, "
             f"median of {reps} runs of each way, in ms.",
             "",
             "| programs | cache | way | " + " | ".join(COLUMNS) + " |",
             "|---:|---|---|" + "---:|" * len(COLUMNS)]
    for (programs, cache, way), fields in sorted(runs.items()):
        medians = [statistics.median(f[c] for f in fields) for c in COLUMNS]
        lines.append(f"| {programs} | {cache} | {way} | " +
                     " | ".join(f"{v:.1f}" for v in medians) + " |")
        print(f"first_launch {device} {programs} programs {cache} {way}: "
              f"compile and load {medians[2]:.1f} ms, first launch {medians[4]:.1f} ms")
    lines.append(f"<!-- {args.section}-end -->")
    if args.markdown:
        report.replace_section(args.markdown, args.section, "\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
