#!/usr/bin/env python3
"""Prints the counts of a CTest JUnit report and every skipped test with the reason it gave."""
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
    lines = [line.strip() for line in output.splitlines() if line.strip()]
    return lines[-1] if lines else "(no reason printed)"


def main(path: str) -> int:
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as error:
        print(f"tests: no CTest report to summarise ({error})")
        return 1
    cases = root.iter("testcase")
    passed, failed, skipped = 0, [], []
    for case in cases:
        name = case.get("name", "?")
        status = case.get("status", "")
        output = "".join(e.text or "" for e in case.iter("system-out"))
        if case.find("skipped") is not None or status in ("notrun", "disabled"):
            skipped.append((name, skip_reason(output)))
        elif case.find("failure") is not None or status == "fail":
            failed.append(name)
        else:
            passed += 1
    print(f"tests: {passed} passed, {len(failed)} failed, {len(skipped)} skipped")
    for name, why in skipped:
        print(f"  skipped {name}: {why}")
    for name in failed:
        print(f"  FAILED {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
