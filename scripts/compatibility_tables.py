#!/usr/bin/env python3
"""Writes docs/compatibility.md's tables from a run: the corpus's manifest
(tests/corpus/manifest.json), the reports of tests/corpus/compile_corpus.py (--compile, one per
target or several targets in one) and the corpus tests' GoogleTest JSON results per device
(--tests DEVICE=FILE, from kjit_corpus_tests --gtest_output=json:FILE). Each driver records
which files it loaded (corpus_file:<path> properties). Prints Markdown: one summary table, then a
table per suite with each file's outcome and, for each failure, its cause."""
import argparse
import collections
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITES = [("cuda-samples", "NVIDIA cuda-samples"), ("rodinia", "Rodinia"),
          ("polybench", "PolyBench-ACC"), ("parboil", "Parboil"), ("shoc", "SHOC"),
          ("hecbench", "HeCBench"), ("llm.c", "llm.c (dev/cuda)"), ("sgemm", "SGEMM_CUDA")]


def first_error(message):
    for line in message.splitlines():
        if ": error: " in line:
            return line.split(": error: ", 1)[1].strip()
    lines = [l.strip() for l in message.splitlines() if l.strip()]
    return lines[0] if lines else ""


def short(text, n=110):
    text = text.replace("|", "\\|")
    return text if len(text) <= n else text[: n - 1] + "…"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--compile", action="append", default=[], help="compile_corpus.py report")
    ap.add_argument("--tests", action="append", default=[], help="DEVICE=gtest json")
    args = ap.parse_args()

    manifest = json.load(open(os.path.join(ROOT, "tests/corpus/manifest.json")))
    compiled = {}  # (file, target) -> error or ""
    for path in args.compile:
        for b in json.load(open(path))["builds"]:
            ok = b["status"] in ("compiled", "cached")
            compiled[(b["program"], b["target"])] = "" if ok else first_error(b.get("message", ""))
    targets = sorted({t for (_, t) in compiled})

    runs = collections.defaultdict(dict)  # device -> file -> [passed...]
    devices = []
    for spec in args.tests:
        device, _, path = spec.partition("=")
        devices.append(device)
        results = json.load(open(path))
        for suite in results.get("testsuites", []):
            for t in suite.get("testsuite", []):
                passed = t.get("result") == "COMPLETED" and not t.get("failures")
                skipped = t.get("result") == "SKIPPED"
                for key in t:
                    if key.startswith("corpus_file:") and not skipped:
                        runs[device].setdefault(key[len("corpus_file:"):], []).append(passed)

    print("| suite | files | kernels | " +
          " | ".join(f"compile: {t}" for t in targets) + " | driven | " +
          " | ".join(f"match: {d}" for d in devices) + " |")
    print("|---|---|---|" + "---|" * len(targets) + "---|" + "---|" * len(devices))
    totals = collections.Counter()
    for key, name in SUITES:
        files = [e for e in manifest if e["suite"] == key]
        row = [name, str(len(files)), str(sum(len(e.get("kernels", [])) for e in files))]
        totals["files"] += len(files)
        for t in targets:
            n = sum(1 for e in files if compiled.get((e["file"], t)) == "")
            totals[t] += n
            row.append(str(n))
        driven = {e["file"] for e in files if any(e["file"] in runs[d] for d in devices)}
        totals["driven"] += len(driven)
        row.append(str(len(driven)))
        for d in devices:
            n = sum(1 for f in driven if f in runs[d] and all(runs[d][f]))
            totals[d] += n
            row.append(f"{n} of {sum(1 for f in driven if f in runs[d])}")
        print("| " + " | ".join(row) + " |")
    print("| **all** | " + str(totals["files"]) + " | | " +
          " | ".join(str(totals[t]) for t in targets) + " | " + str(totals["driven"]) + " | " +
          " | ".join(str(totals[d]) for d in devices) + " |")

    for key, name in SUITES:
        files = [e for e in manifest if e["suite"] == key]
        print(f"\n### {name}\n")
        print("| file | kernels | " + " | ".join(targets) + " | " +
              " | ".join(f"runs on {d}" for d in devices) + " |")
        print("|---|---|" + "---|" * (len(targets) + len(devices)))
        for e in files:
            f = e["file"]
            cells = [f"`{f.split('/', 1)[1]}`", str(len(e.get("kernels", [])))]
            for t in targets:
                err = compiled.get((f, t))
                cells.append("–" if err is None else "compiles" if err == "" else
                             "fails: " + short(err))
            for d in devices:
                r = runs[d].get(f)
                cells.append("–" if r is None else "matches" if all(r) else "DIFFERS")
            print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
