#!/usr/bin/env python3
"""Compiles every kernel of every file of the corpus (tests/corpus/manifest.json), each file as
shipped and as one program, for each target (kjit-warm, offline: cpu and cuda:sm_90 need no
device), and checks the outcome against tests/corpus/expected_failures.json: a file listed there
must fail on each target it names with the text given there (a part of its error; "cause" says
why in words), every other file must compile. Writes a
JSON report and a per-suite summary.

  compile_corpus.py --warm build/src/kjit-warm --target cpu --target cuda:sm_90 [--report out.json]
                    [--only SUBSTRING] [--write-expected]
"""
import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def kernel(spelled):
    """A manifest's kernel: "name", or "name(parameter types)" for one of overloads."""
    if spelled.endswith(")") and "(" in spelled:
        name, _, rest = spelled.partition("(")
        return {"name": name.strip(), "signature": rest[:-1].strip()}
    return {"name": spelled}


def kjit_manifest(entries):
    builds = []
    for e in entries:
        if not e.get("kernels"):
            continue
        builds.append({
            "name": e["file"],
            "file": os.path.join(HERE, e["file"]),
            "include_dirs": [os.path.join(HERE, d) for d in e.get("include_dirs", [])],
            "defines": {k: str(v) for k, v in e.get("defines", {}).items()},
            "kernels": [kernel(k) for k in e["kernels"]],
        })
    return {"kjit_manifest": 1, "builds": builds}


def first_error(message):
    for line in message.splitlines():
        if ": error: " in line:
            return line.split(": error: ", 1)[1].strip()
    lines = [l for l in message.splitlines() if l.strip()]
    return lines[-1].strip() if lines else ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--warm", required=True)
    ap.add_argument("--target", action="append", required=True)
    ap.add_argument("--report")
    ap.add_argument("--only", help="files whose path contains this")
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--write-expected", action="store_true",
                    help="record today's failures as expected (then give each a reason)")
    args = ap.parse_args()

    entries = json.load(open(os.path.join(HERE, "manifest.json")))
    if args.only:
        entries = [e for e in entries if args.only in e["file"]]
    expected_path = os.path.join(HERE, "expected_failures.json")
    expected = json.load(open(expected_path)) if os.path.exists(expected_path) else {}

    with tempfile.TemporaryDirectory(prefix="kjit-corpus-") as tmp:
        manifest = os.path.join(tmp, "corpus-manifest.json")
        json.dump(kjit_manifest(entries), open(manifest, "w"))
        report_path = os.path.join(tmp, "report.json")
        command = [args.warm, "--cache-dir", os.path.join(tmp, "cache"), "-q", "-j",
                   str(args.jobs), "--json", report_path, manifest]
        for t in args.target:
            command += ["-t", t]
        run = subprocess.run(command, capture_output=True, text=True)
        if not os.path.exists(report_path):
            print(run.stdout, run.stderr, sep="\n")
            print(f"kjit-warm wrote no report (exit {run.returncode})")
            return 1
        report = json.load(open(report_path))

    suite_of = {e["file"]: e["suite"] for e in entries}
    outcome = {}  # (file, target) -> (ok, first error)
    for b in report["builds"]:
        outcome[(b["program"], b["target"])] = (b["status"] in ("compiled", "cached"),
                                                b.get("message", ""))

    problems = []
    table = collections.defaultdict(lambda: collections.Counter())
    for (file, target), (ok, message) in sorted(outcome.items()):
        want = expected.get(file, {}).get(target)  # "cause" is for readers
        suite = suite_of.get(file, "?")
        table[(suite, target)]["files"] += 1
        if ok:
            table[(suite, target)]["compile"] += 1
            if want is not None:
                problems.append(f"{file} [{target}]: compiles now; expected to fail with '{want}'"
                                " (remove it from expected_failures.json)")
        else:
            reason = first_error(message)
            if want is None:
                problems.append(f"{file} [{target}]: UNEXPECTED failure: {reason}\n{message}")
            elif want not in message:
                problems.append(f"{file} [{target}]: fails, but not with '{want}': {reason}")
            else:
                table[(suite, target)]["expected failures"] += 1

    if args.write_expected:
        new = {}
        for (file, target), (ok, message) in sorted(outcome.items()):
            if not ok:
                new.setdefault(file, {"cause": "?"})[target] = first_error(message)[:120]
        json.dump(new, open(expected_path, "w"), indent=1, sort_keys=True)
        print(f"wrote {len(new)} files' failures to {expected_path}: give each its cause")

    print(f"{'suite':14} {'target':12} files  compile  expected failures")
    for (suite, target), c in sorted(table.items()):
        print(f"{suite:14} {target:12} {c['files']:5}  {c['compile']:7}  {c['expected failures']:5}")
    if args.report:
        json.dump({"builds": report["builds"], "problems": problems}, open(args.report, "w"),
                  indent=1)
    for p in problems:
        print(p)
    print(f"{len(outcome)} compiles, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
