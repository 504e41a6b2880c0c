#!/usr/bin/env python3
"""The Conan recipe parses (conan inspect) and agrees with the CMake build: every recipe option
maps onto a CMake option() that exists, with the same default; every backend option and
KJIT_BUILD_TOOLS has a recipe option; the recipe's version is project(VERSION); what
export_sources() copies holds every folder the top-level CMakeLists.txt adds.
  conan_recipe_test.py REPO_ROOT CONAN"""
import json
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(sys.argv[1])
conan = sys.argv[2]
cmake = (root / "CMakeLists.txt").read_text()
recipe_path = root / "conan" / "conanfile.py"
recipe = recipe_path.read_text()
problems = []

inspected = json.loads(subprocess.run(
    [conan, "inspect", "-f", "json", str(recipe_path)], check=True, capture_output=True,
    text=True).stdout)

cmake_options = {name: default == "ON" for name, default in
                 re.findall(r'option\((KJIT_\w+) "[^"]*" (ON|OFF)\)', cmake)}
mapping = dict(re.findall(r'"(\w+)": "(KJIT_\w+)"', recipe.split("CMAKE_OPTIONS = {")[1].split("}")[0]))

for option, default in inspected["default_options"].items():
    variable = mapping.get(option)
    if variable is None:
        problems.append(f"recipe option {option} maps onto no CMake option (CMAKE_OPTIONS)")
    elif variable not in cmake_options:
        problems.append(f"recipe option {option} names {variable}, which CMakeLists.txt lacks")
    elif cmake_options[variable] != (str(default) == "True"):
        problems.append(f"{option} defaults to {default}, {variable} to "
                        f"{'ON' if cmake_options[variable] else 'OFF'}")
for variable in cmake_options:
    if (variable.startswith("KJIT_WITH_") or variable == "KJIT_BUILD_TOOLS") and \
            variable not in mapping.values():
        problems.append(f"CMake option {variable} has no recipe option")

version = re.search(r"project\(kjit VERSION ([0-9.]+)", cmake).group(1)
if inspected.get("version") != version:
    problems.append(f"recipe version {inspected.get('version')} is not project(VERSION) {version}")

sources = re.search(r"SOURCES = \(([^)]*)\)", recipe).group(1)
for folder in re.findall(r"^add_subdirectory\((\w+)\)", cmake, re.M):
    if f'"{folder}/*"' not in sources:
        problems.append(f"export_sources() leaves out {folder}/, which CMakeLists.txt always adds")

for p in problems:
    print("FAIL:", p)
print(f"checked {len(inspected['default_options'])} recipe options against "
      f"{len(cmake_options)} CMake options; version {version}")
sys.exit(1 if problems else 0)
