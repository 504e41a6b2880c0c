#!/usr/bin/env python3
"""Writes docs/records/<name>.md from what scripts/gpu-check.sh left in a folder: the machine,
the test results (CTest JUnit), and the time-to-first-launch medians when present."""
import argparse
import re
import statistics
import xml.etree.ElementTree as ET
from pathlib import Path


def first_launch(path: Path):
    runs = {"overlapped": [], "sequential": []}
    pattern = re.compile(r"(\w+) \S+: select ([\d.]+), wait for context ([\d.]+), compile and load "
                         r"([\d.]+), launch and download ([\d.]+), first launch ([\d.]+)")
    for line in path.read_text().splitlines():
        m = pattern.match(line)
        if m:
            runs[m.group(1)].append([float(x) for x in m.groups()[1:]])
    lines = ["| way | runs | select | wait for context | compile and load | launch and download | after select | first launch |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for way, rows in runs.items():
        if rows:
            med = [statistics.median(c) for c in zip(*rows)]
            after = statistics.median(r[1] + r[2] + r[3] for r in rows)
            lines.append(f"| {way} | {len(rows)} | {med[0]:.0f} | {med[1]:.0f} | {med[2]:.0f} | "
                         f"{med[3]:.0f} | {after:.0f} | {med[4]:.0f} |")
    return lines


def main():
    p = argparse.ArgumentParser()
    p.add_argument("folder", type=Path)
    p.add_argument("output", type=Path)
    p.add_argument("--title", required=True)
    p.add_argument("--command", required=True)
    a = p.parse_args()
    machine = (a.folder / "machine.txt").read_text().strip().splitlines()
    cases = []
    for c in ET.parse(a.folder / "ctest.xml").getroot().iter("testcase"):
        state = "skipped" if c.find("skipped") is not None else (
            "FAILED" if c.find("failure") is not None else "passed")
        out = "".join(e.text or "" for e in c.iter("system-out"))
        why = re.search(r"Skipped\s*\n(.*?)\n", out) or re.search(r"SKIPPED.*?\n(.*)", out)
        cases.append((c.get("name"), state, float(c.get("time", "0")), why.group(1).strip() if why else ""))
    cases.sort()
    count = {s: sum(1 for c in cases if c[1] == s) for s in ("passed", "FAILED", "skipped")}
    text = [f"# {a.title}", "", f"`{a.command}` on the lent GPU machine. It builds kjit with the CUDA",
            "backend (the machine has no LLVM, so the CPU backend is off there) and runs the `cuda` and `core`",
            "test labels. Benchmark figures, when there are any, are in [../benchmarks.md](../benchmarks.md).", "",
            "Machine, as the script printed it:", "", "```", *machine, "```", "",
            f"Result: {count['passed']} passed, {count['FAILED']} failed, {count['skipped']} skipped.", ""]
    text += [f"- skipped `{n}`: {why}" for n, s, _, why in cases if s == "skipped"]
    if (a.folder / "first-launch.log").exists():
        text += ["", "Time to first launch (ms, medians of fresh processes):", "", *first_launch(a.folder / "first-launch.log")]
    text += ["", "| test | result | seconds |", "|---|---|---:|"]
    text += [f"| `{n}` | {s} | {t:.2f} |" for n, s, t, _ in cases]
    a.output.write_text("\n".join(text) + "\n")


if __name__ == "__main__":
    main()
