#!/usr/bin/env python3
"""Prints the counts of a CTest JUnit report and every skipped test with the reason it gave.

With --expected LIST (tests/expected_skips/), also fails when a test skipped that the list does
not expect, or when an entry of the list matched no skipped test."""
import argparse
import fnmatch
import os
import re
import sys
import xml.etree.ElementTree as ET


def skip_reason(output: str) -> str:
    """What a skipped test said: GoogleTest's skip message, a "SKIPPED: why" line (scripts), or
    else the last line it printed (programs that exit saying no device matches)."""
    match = (re.search(r"Skipped\s*\n(.*?)\n", output) or re.search(r"SKIPPED:\s*(.+)", output)
             or re.search(r"SKIPPED.*?\n(.*)", output))
    if match and match.group(1).strip():
        return match.group(1).strip()
    # Not the lines of kjit_checked_test's own verdict (cmake/KjitCheckedTestScript.cmake).
    lines = [line.strip() for line in output.splitlines()
             if line.strip() and not line.lstrip().startswith(("CMake Error at", "checked test:"))]
    return lines[-1] if lines else "(no reason printed)"


def read_expected(path: str, including: tuple = ()) -> list:
    """The entries of an expected-skip list: ("file:line", name pattern, reason expression). A
    line `include OTHER` takes OTHER's entries (a path relative to this list's folder)."""
    entries = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("include "):
                other = os.path.join(os.path.dirname(path), line.split(None, 1)[1])
                if os.path.abspath(other) in including + (os.path.abspath(path),):
                    raise ValueError(f"{path}:{number}: {other} includes itself")
                entries += read_expected(other, including + (os.path.abspath(path),))
                continue
            parts = re.split(r"\s{2,}", line, maxsplit=1)
            if len(parts) != 2:
                raise ValueError(f"{path}:{number}: expected 'pattern  reason', got {line!r}")
            entries.append((f"{path}:{number}", parts[0], re.compile(parts[1])))
    return entries


def check_skips(skipped: list, entries: list, path: str) -> list:
    """The complaints about `skipped` [(name, reason, output)] against `entries`."""
    complaints = []
    seen = set()
    for name, why, output in skipped:
        matching = [e for e in entries if fnmatch.fnmatchcase(name, e[1]) and e[2].search(output)]
        if not matching:
            complaints.append(f"UNEXPECTED SKIP {name}: {why} (not in {path})")
        seen.update(e[0] for e in matching)
    for where, pattern, reason in entries:
        if where not in seen:
            complaints.append(f"EXPECTED SKIP NOT SEEN {where}: no test matching "
                              f"{pattern!r} skipped saying /{reason.pattern}/ (it went missing, "
                              f"was renamed, or runs on this machine: update the list)")
    return complaints


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("report", help="CTest's JUnit report (ctest --output-junit)")
    parser.add_argument("--expected", help="the list of skips this machine may have")
    args = parser.parse_args()
    try:
        root = ET.parse(args.report).getroot()
    except (OSError, ET.ParseError) as error:
        print(f"tests: no CTest report to summarise ({error})")
        return 1
    passed, failed, skipped = 0, [], []
    for case in root.iter("testcase"):
        name = case.get("name", "?")
        status = case.get("status", "")
        output = "".join(e.text or "" for e in case.iter("system-out"))
        if case.find("skipped") is not None or status in ("notrun", "disabled"):
            skipped.append((name, skip_reason(output), output))
        elif case.find("failure") is not None or status == "fail":
            failed.append(name)
        else:
            passed += 1
    print(f"tests: {passed} passed, {len(failed)} failed, {len(skipped)} skipped")
    for name, why, _ in skipped:
        print(f"  skipped {name}: {why}")
    for name in failed:
        print(f"  FAILED {name}")
    if not args.expected:
        return 0
    try:
        complaints = check_skips(skipped, read_expected(args.expected), args.expected)
    except (OSError, ValueError, re.error) as error:
        print(f"tests: cannot read the expected skips: {error}")
        return 1
    for complaint in complaints:
        print(f"  {complaint}")
    print(f"skips: {len(skipped)} skipped, {len(complaints)} not as {args.expected} expects")
    return 1 if complaints else 0


if __name__ == "__main__":
    sys.exit(main())
