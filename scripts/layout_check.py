#!/usr/bin/env python3
"""Keeps the shape of src/ as built: exits 1 naming each
- source file over 600 lines and function over 80 lines (universal-ctags finds the functions),
  beyond those listed in scripts/layout_exceptions.json, each with its reason; a listed file or
  function that grew past its listed size fails too, and one that no longer needs its entry is
  named so that the list only shrinks;
- include that crosses the layers the wrong way: each layer may include its own headers and those
  of the layers it uses (read from src/CMakeLists.txt's kjit_layer calls), which the build's include
  roots also enforce; and any include written relative to the including file ("../x.hpp"), which
  the roots cannot see.
Usage: scripts/layout_check.py [repository root]"""
import json
import pathlib
import re
import shutil
import subprocess
import sys

root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).parents[1]
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 80

def layers_from_cmake():
    """Folder prefix -> the layers its files may include (itself included), from the
    kjit_layer(NAME FOLDER <folder> USES <layers> SOURCES ...) calls of src/CMakeLists.txt: the
    same graph the build's include roots enforce, stated once."""
    text = (root / "src" / "CMakeLists.txt").read_text()
    layers = {}
    for name, folder, uses in re.findall(
            r"kjit_layer\((\w+) FOLDER (\S+)(?: USES ([\w ]+?))? SOURCES", text):
        layers[folder + "/"] = {name, *uses.split()}
    # core/tooling/ is the part of the core the tools may see (their own include root, given in
    # src/CMakeLists.txt and src/tools/CMakeLists.txt); the tools are no layer of the library.
    layers["core/"].add("tooling")
    layers["core/tooling/"] = layers["core/"]
    layers["tools/"] = {"tools", "tooling", "kit", "source", "support"}
    return layers


LAYERS = layers_from_cmake()
REGISTRY = "core/backend_registry.cpp"
# Text that kernels include (embedded, compiled by NVRTC, hipRTC or Clang): not the library's code.
KERNEL_TEXT = ("source/kernel_headers/include/", "backends/cpu/prelude/",
               "backends/cuda/prelude/", "backends/hip/prelude/")


PREFIXES = sorted(LAYERS, key=len, reverse=True)
# A layer's name is its folder's ("backends/kit/" -> "kit"), as src/CMakeLists.txt names them.
ALLOWED = {prefix.rstrip("/").rsplit("/", 1)[-1]: uses for prefix, uses in LAYERS.items()}


def layer_of(path):
    """The name of the layer `path` (relative to src/) belongs to, or None."""
    for prefix in PREFIXES:
        if path.startswith(prefix):
            return prefix.rstrip("/").rsplit("/", 1)[-1]
    return None


if shutil.which("ctags-universal") is None:
    print("SKIPPED: universal-ctags is not installed (scripts/install-deps.sh installs it): "
          "functions cannot be measured")
    sys.exit(0)

problems = []
src = root / "src"
exceptions = json.loads((root / "scripts" / "layout_exceptions.json").read_text())
file_exceptions = exceptions["files"]
function_exceptions = exceptions["functions"]
used_exceptions = set()

sources = sorted(p for p in src.rglob("*") if p.suffix in (".cpp", ".hpp", ".h") and p.is_file())
for path in sources:
    rel = path.relative_to(src).as_posix()
    if rel.startswith(KERNEL_TEXT):
        continue
    text = path.read_text()
    lines = text.count("\n")
    if lines > MAX_FILE_LINES:
        allowed = file_exceptions.get(rel)
        if allowed is None:
            problems.append(f"src/{rel}: {lines} lines (at most {MAX_FILE_LINES})")
        else:
            used_exceptions.add(("file", rel))
            if lines > allowed["lines"]:
                problems.append(f"src/{rel}: {lines} lines, more than the {allowed['lines']} "
                                "its exception allows")
    mine = layer_of(rel)
    for number, line in enumerate(text.splitlines(), 1):
        m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
        if not m:
            continue
        name = m.group(1)
        if name.startswith("../") or "/../" in name:
            problems.append(f"src/{rel}:{number}: includes \"{name}\" relative to itself; "
                            "write it from src/")
            continue
        if not (src / name).is_file():
            continue  # a system or generated header, or one beside a kernel-text file
        theirs = layer_of(name)
        if mine is None or theirs is None or rel == REGISTRY:
            continue
        if theirs not in ALLOWED[mine]:
            problems.append(f"src/{rel}:{number}: the {mine} layer includes \"{name}\" "
                            f"of the {theirs} layer, which it does not use")

# Functions, with their first and last lines, from universal-ctags.
ctags = subprocess.run(
    ["ctags-universal", "--output-format=json", "--fields=+neK", "--kinds-C++=f",
     "--languages=C++", "--langmap=C++:+.h", "-R", "-f", "-", "src"],
    cwd=root, capture_output=True, text=True, check=True)
for entry in ctags.stdout.splitlines():
    tag = json.loads(entry)
    if tag.get("_type") != "tag" or "end" not in tag or tag["path"][4:].startswith(KERNEL_TEXT):
        continue
    length = tag["end"] - tag["line"] + 1
    if length <= MAX_FUNCTION_LINES:
        continue
    key = f"{tag['path']}:{tag['name']}"
    allowed = function_exceptions.get(key)
    if allowed is None:
        problems.append(f"{tag['path']}:{tag['line']}: {tag['name']} is {length} lines "
                        f"(at most {MAX_FUNCTION_LINES})")
    else:
        used_exceptions.add(("function", key))
        if length > allowed["lines"]:
            problems.append(f"{key}: {length} lines, more than the {allowed['lines']} its "
                            "exception allows")

for rel in file_exceptions:
    if ("file", rel) not in used_exceptions:
        problems.append(f"scripts/layout_exceptions.json: src/{rel} is within the limit now: "
                        "remove its exception")
for key in function_exceptions:
    if ("function", key) not in used_exceptions:
        problems.append(f"scripts/layout_exceptions.json: {key} is within the limit (or gone) "
                        "now: remove its exception")

for p in problems:
    print(p)
print(f"layout: {len(sources)} files, {len(problems)} problems; "
      f"{len(file_exceptions)} files and {len(function_exceptions)} functions listed as over")
sys.exit(1 if problems else 0)
