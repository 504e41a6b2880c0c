#!/usr/bin/env python3
"""Every test that docs/reliability.md names exists: `Suite.Name` as a TEST or TEST_F in tests/,
`env.name` as a kjit_env_test or kjit_warm_env_test, or made by kjit_lacking_runtime_test or
kjit_lacking_compiler_test in tests/environment/; `cuda.faults.name` as an add_test or a
kjit_checked_test (cmake/KjitCheckedTest.cmake). A row that
points at a test that was renamed or removed fails here."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2]
doc = (root / "docs" / "reliability.md").read_text()
sources = "\n".join(p.read_text() for p in (root / "tests").rglob("*.cpp"))
cmake = "\n".join(p.read_text() for p in (root / "tests").rglob("CMakeLists.txt"))

named = sorted(set(re.findall(r"`([A-Za-z_][A-Za-z0-9_.]*\.[A-Za-z0-9_]+)`", doc)))
missing = []
checked = 0
for name in named:
    if name.startswith("env."):
        found = re.search(r"kjit_(warm_)?env_test\(" + re.escape(name[4:]) + r"\s", cmake)
        lacking = re.fullmatch(r"env\.(\w+?)_lacking_symbols(_cpu_still_works)?", name)
        found = found or (lacking and re.search(
            r"kjit_lacking_(runtime|compiler)_test\(" + lacking.group(1) + r"\s", cmake))
    elif name.startswith(("cuda.", "hip.", "cpu.", "core.")):
        found = re.search(r"(add_test|kjit_checked_test)\(NAME " + re.escape(name) + r"\s", cmake)
    elif name.count(".") == 1:
        suite, test = name.split(".")
        found = re.search(r"TEST(_F)?\(\s*" + suite + r",\s*" + test + r"\)", sources)
    else:
        continue  # a file name such as cpu-backend.md
    checked += 1
    if not found:
        missing.append(name)

print(f"{checked} tests named in docs/reliability.md")
if checked < 40:
    print("fewer than 40: the page lost its table?")
    sys.exit(1)
for name in missing:
    print(f"docs/reliability.md names {name}, which no test defines")
sys.exit(1 if missing else 0)
