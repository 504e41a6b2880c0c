#!/usr/bin/env python3
"""Figures that the README and docs/*.md repeat from elsewhere agree with their source:
- a test count followed by a link to a record of a run ("375 passed, 0 failed, 20 skipped ...
  ([record](docs/records/X.md))"), on any page, equals that record's "Result:" line;
- the README's count of CPU tests ("616 tests passed in the latest CI run ([record](...))") equals
  the latest plain run ("plain N passed") in the record it links (docs/records/ci-runs.md);
- the cost of compiling in a child process is the same in docs/reference.md and
  docs/reliability.md;
- each range of the CPU speed table in docs/benchmarks.md's summary holds the speed of its cases
  in the latest tables of docs/benchmarks.md (sections cpu and cpu16, as benchmarks/report.py
  writes them);
- checked mode's slowdown, wherever docs/reference.md and the guides state it ("17 to 27 times
  slower", "up to 32 times with race"), is what docs/benchmarks.md's checked-memory and
  checked-race sections measured, rounded to whole times;
- the disk cache's warm loads and cold compiles in the README and docs/cache.md are those of
  docs/benchmarks.md's cache table;
- the guide's and the README's transfer rates on the H100 span what benchmarks.md says of its
  runs;
- the README's CUDA table (launch, kernel times against nvcc, vadd bandwidth, transfers) says what
  benchmarks.md's summary of the CUDA runs says, and its cuda section's rows lie in those ranges;
- the README's comparison with CuPy is what the cupy section measured (to its rounding);
- the README's time to the first launch on a GPU is what the first-launch-cuda section measured
  ("about" allowing 10%).
Exits 1 naming each disagreement."""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).parents[2]
problems = []
checked = 0

COUNT = re.compile(r"(\d+) (?:tests )?passed(?:, (\d+) failed)?, (\d+) skipped")
LINK = re.compile(r"\]\(((?:\.\./)?(?:docs/)?records/[^)#]+\.md)\)")
RESULT = re.compile(r"^Result: (\d+) passed, (\d+) failed, (\d+) skipped\.", re.M)

for page in [root / "README.md"] + sorted((root / "docs").glob("*.md")):
    text = re.sub(r"\s+", " ", page.read_text())  # a count may break across lines
    for count in COUNT.finditer(text):
        # The record it cites: the first link to one within the rest of its sentence.
        sentence = re.split(r"(?<=[.;])\s", text[count.end():count.end() + 400], maxsplit=1)[0]
        link = LINK.search(sentence)
        if not link:
            continue
        record_path = (page.parent / link.group(1)).resolve()
        if not record_path.exists():
            problems.append(f"{page.name}: cites {link.group(1)}, which does not exist")
            continue
        result = RESULT.search(record_path.read_text())
        if not result:
            continue  # a record of several runs (cross-backend, benchmarks) has no one result
        checked += 1
        said = (count.group(1), count.group(2) or result.group(2), count.group(3))
        if said != result.groups():
            problems.append(f"{page.name} says '{count.group(0)}' citing {link.group(1)}, whose "
                            f"result is {result.group(1)} passed, {result.group(2)} failed, "
                            f"{result.group(3)} skipped")

readme = (root / "README.md").read_text()
reliability = (root / "docs" / "reliability.md").read_text()
reference = (root / "docs" / "reference.md").read_text()
cpu = re.search(r"(\d+) tests passed in the latest CI run \(\[record\]\((docs/records/[^)#]+\.md)", readme)
if not cpu or not (root / cpu.group(2)).exists():
    problems.append("the README's CPU test count, or the record it cites, was not found")
else:
    plain = re.findall(r"plain(?: suite)? (\d+) passed", (root / cpu.group(2)).read_text())
    if not plain:
        problems.append(f"{cpu.group(2)} has no plain run ('plain N passed')")
    else:
        checked += 1
        if cpu.group(1) != plain[-1]:
            problems.append(f"README: {cpu.group(1)} CPU tests passed; {cpu.group(2)}'s latest "
                            f"plain run: {plain[-1]}")
isolation = [re.search(r"[Aa]bout (\d+) ms more per\s+compile", t) for t in (reference, reliability)]
if not all(isolation):
    problems.append("the cost of compiling in a child process was not found in docs/reference.md "
                    "and docs/reliability.md")
else:
    checked += 1
    if isolation[0].group(1) != isolation[1].group(1):
        problems.append(f"compiling in a child process costs about {isolation[0].group(1)} ms "
                        f"more (docs/reference.md) or {isolation[1].group(1)} ms (docs/reliability.md)")

# The CPU speed table of docs/benchmarks.md's summary: row -> the cases of its generated sections
# that it summarises, per "/"-part.
ROWS = {
    "saxpy, DAXPY, TRIAD": [["elementwise/saxpy", "rajaperf/DAXPY", "rajaperf/TRIAD"]],
    "vadd, 2^24 floats": [["elementwise/vadd"]],
    "Mandelbrot": [["mandelbrot/1024x800x256"]],
    "RAJAPerf ENERGY": [["rajaperf/ENERGY"]],
    "RAJAPerf FIR": [["rajaperf/FIR"]],
    "RAJAPerf JACOBI_2D": [["rajaperf/JACOBI_2D"]],
    "grid-stride saxpy on a fixed grid": [["elementwise/saxpy_grid_stride"]],
    "RAJAPerf MAT_MAT_SHARED": [["rajaperf/MAT_MAT_SHARED"]],
    "RAJAPerf REDUCE_SUM, one element per thread": [["rajaperf/REDUCE_SUM_direct"]],
    "RAJAPerf REDUCE_SUM, grid-stride": [["rajaperf/REDUCE_SUM"]],
    "warp-shuffle REDUCE_SUM": [["rajaperf/REDUCE_SUM_shfl"], ["rajaperf/REDUCE_SUM_shfl_direct"]],
    "launching an empty kernel": [["launch/empty"]],
    "the same with 4 blocks per core": [["launch/empty_4_blocks_per_core"]],
}
benchmarks = (root / "docs" / "benchmarks.md").read_text()


def section(name):
    """The text of a generated section of benchmarks.md (between its markers); "" when missing."""
    body = re.search(f"<!-- {name}-begin -->(.*?)<!-- {name}-end -->", benchmarks, re.S)
    if not body:
        problems.append(f"docs/benchmarks.md has no section {name}")
        return ""
    return body.group(1)


def speeds(name):
    """Case -> kjit's speed over the baseline, from a report.py section of benchmarks.md."""
    return {m.group(1): float(m.group(2)) for m in
            re.finditer(r"^\| (\S+) \|.*\| ([0-9.]+)x \|$", section(name), re.M)}


latest = [speeds("cpu"), speeds("cpu16")]
table_rows = 0
for line in benchmarks.splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    row = next((r for r in ROWS if len(cells) == 3 and r in cells[0]), None)
    if row is None:
        continue
    table_rows += 1
    for column, measured in zip(cells[1:], latest):
        parts = [p for p in column.split(" / ")]
        for part, cases in zip(parts, ROWS[row]):
            bounds = [float(x) for x in re.findall(r"([0-9.]+)x", re.sub(r"\(.*?\)", "", part))]
            if not bounds:
                problems.append(f"docs/benchmarks.md summary row '{row}': no speed in '{part}'")
                continue
            low, high = min(bounds), max(bounds)
            for case in cases:
                if case not in measured:
                    problems.append(f"docs/benchmarks.md has no row {case}")
                    continue
                checked += 1
                if not low - 0.005 <= measured[case] <= high + 0.005:
                    problems.append(f"docs/benchmarks.md's summary row '{row}' says {part.strip()}, but "
                                    f"its section measured {case} at {measured[case]:.2f}x")
if table_rows != len(ROWS):
    problems.append(f"found {table_rows} of the {len(ROWS)} CPU speed rows of docs/benchmarks.md's "
                    f"summary")



def slowdowns(name):
    """Checked time over unchecked time of each case of a checked-mode section."""
    return [float(m.group(1)) for m in
            re.finditer(r"^\| \S+ \| [0-9.]+ \| unchecked \| [0-9.]+ \| ([0-9.]+) \|", section(name),
                        re.M)]


memory, race = slowdowns("checked-memory"), slowdowns("checked-race")
if memory and race:
    measured = (round(min(memory)), round(max(memory)), round(max(race)))
    statements = 0
    for page in ("docs/reference.md", "docs/guide.md", "docs/cpu-backend.md"):
        text = re.sub(r"\s+", " ", (root / page).read_text())
        for said in re.finditer(r"Kernels run (\d+) to (\d+) times slower(?:[^.]*?up to (\d+) times "
                                r"with (?:`race`|the race check))?", text):
            statements += 1
            checked += 1
            if (int(said.group(1)), int(said.group(2))) != measured[:2] or (
                    said.group(3) and int(said.group(3)) != measured[2]):
                problems.append(f"{page} says '{said.group(0)}'; docs/benchmarks.md measured "
                                f"{measured[0]} to {measured[1]} times, up to {measured[2]} with "
                                f"race")
    if statements != 3:
        problems.append(f"found {statements} of the 3 statements of checked mode's slowdown")


# The disk cache table of benchmarks.md: its CUDA and CPU rows (cold, warm in ms; cold/warm).
rows = {m.group(1): (float(m.group(2)), float(m.group(3)), m.group(4)) for m in re.finditer(
    r"^\| (H100|[^|]*CPU backend)[^|]*\| ([0-9.]+) / ([0-9.]+) ms \| (\d+)x \|", benchmarks, re.M)}
gpu_row = rows.get("H100")
cpu_row = next((v for k, v in rows.items() if "CPU backend" in k), None)
if not gpu_row or not cpu_row:
    problems.append("docs/benchmarks.md's disk cache table has no H100 or CPU row")
else:
    want = {"gpu warm": f"{gpu_row[1]:.2f}", "cpu warm": f"{cpu_row[1]:.2f}", "ratio": gpu_row[2],
            "cold from": str(round(min(gpu_row[0], cpu_row[0]))),
            "cold to": str(round(max(gpu_row[0], cpu_row[0])))}
    STATEMENTS = [
        ("README.md", r"loads in ([0-9.]+) ms \(H100\) to ([0-9.]+) ms \(CPU\) instead of compiling "
         r"in (\d+) to (\d+) ms", ["gpu warm", "cpu warm", "cold from", "cold to"]),
        ("docs/cache.md", r"instead: ([0-9.]+) ms per program on an H100 and ([0-9.]+) ms on the CPU "
         r"backend, against (\d+) to (\d+) ms", ["gpu warm", "cpu warm", "cold from", "cold to"]),
        ("docs/cache.md", r"CUDA warm load ([0-9.]+) ms per program, (\d+)x faster than cold; CPU warm "
         r"load ([0-9.]+) ms", ["gpu warm", "ratio", "cpu warm"]),
    ]
    for page, pattern, names in STATEMENTS:
        said = re.search(pattern, re.sub(r"\s+", " ", (root / page).read_text()))
        if not said:
            problems.append(f"{page}: the disk cache's figures were not found (/{pattern}/)")
            continue
        for name, value in zip(names, said.groups()):
            checked += 1
            if value != want[name]:
                problems.append(f"{page} says {value} for the cache's {name}; docs/benchmarks.md's "
                                f"table gives {want[name]}")


# Transfer rates: benchmarks.md's summary of its H100 runs, and what the guide makes of it.
flat = re.sub(r"\s+", " ", benchmarks)
pinned = re.search(r"copied at the link's speed: (\d+) to (\d+) GB/s up and (\d+) to (\d+) GB/s "
                   r"down", flat)
staged = re.search(r"raw pageable `cuMemcpy` \(([0-9.]+) to ([0-9.]+) GB/s\): (\d+) to (\d+) GB/s up "
                   r"and (\d+) to (\d+) GB/s down", flat)
guide = re.search(r"page-locked on a GPU: (\d+) to (\d+) GB/s on the H100.*?several threads: (\d+) "
                  r"to (\d+) GB/s.*?from the same memory gets ([0-9.]+) to ([0-9.]+)",
                  re.sub(r"\s+", " ", (root / "docs" / "guide.md").read_text()))
if not (pinned and staged and guide):
    problems.append("the H100 transfer rates were not found in docs/benchmarks.md and guide.md")
else:
    p = [int(x) for x in pinned.groups()]
    s = staged.groups()
    want = (str(min(p)), str(max(p)), str(min(int(s[2]), int(s[4]))),
            str(max(int(s[3]), int(s[5]))), s[0], s[1])
    checked += 1
    readme_pinned = re.search(r"a raw pinned `cuMemcpy` across runs: (\d+) to (\d+) GB/s", readme)
    checked += 1
    if not readme_pinned or readme_pinned.groups() != want[:2]:
        problems.append(f"README's HostBuffer transfer rate is not the {want[0]} to {want[1]} GB/s "
                        f"of docs/benchmarks.md's runs")
    if guide.groups() != want:
        problems.append(f"docs/guide.md gives transfer rates {guide.groups()}; docs/benchmarks.md's "
                        f"runs span {want} (pinned, staged, raw pageable)")


# The README's CUDA table against benchmarks.md's summary of the CUDA runs (the same words, the
# same figures) and the cuda section's rows (inside the summary's ranges).
CUDA_CLAIMS = [
    (r"a typed launch, against a raw `cuLaunchKernel` \| ([0-9.]+x to [0-9.]+x) the time",
     r"a typed kjit launch measured ([0-9.]+x to [0-9.]+x),"),
    (r"`nvcc -O3` \| within ([0-9.]+)% \(most within", r"matmul at [0-9.]+% to ([0-9.]+)%\."),
    (r"\(most within ([0-9.]+)%\)", r"Every kernel is within 2% of nvcc -O3: all within ([0-9.]+)%"),
    (r"vadd bandwidth \| (\d+)% of a device-to-device copy", r"vadd reaches (\d+)% of the"),
    (r"\| ([0-9.]+x to [0-9.]+x) a raw pinned `cuMemcpy`", r"link's speed: .*?runs, ([0-9.]+x to "
     r"[0-9.]+x) a raw pinned"),
    (r"\(staged\) \| ([0-9]+x to [0-9]+x) a raw pageable", r"That runs ([0-9]+x to [0-9]+x) faster"),
]
flat_readme = re.sub(r"\s+", " ", readme)
for in_readme, in_benchmarks in CUDA_CLAIMS:
    said, summary = re.search(in_readme, flat_readme), re.search(in_benchmarks, flat)
    checked += 1
    if not said or not summary:
        problems.append(f"not found: /{in_readme}/ in the README or /{in_benchmarks}/ in "
                        f"docs/benchmarks.md")
    elif said.group(1) != summary.group(1):
        problems.append(f"README says {said.group(1)} where docs/benchmarks.md's summary says "
                        f"{summary.group(1)}")
cuda = section("cuda")
launch = re.search(r"^\| launch_enqueue/empty \|[^|]*\| raw \|[^|]*\| ([0-9.]+) \|", cuda, re.M)
launch_range = re.search(r"a typed kjit launch measured ([0-9.]+)x to ([0-9.]+)x", flat)
if launch and launch_range:
    checked += 1
    if not float(launch_range.group(1)) - 0.005 <= float(launch.group(1)) <= \
            float(launch_range.group(2)) + 0.005:
        problems.append(f"the cuda section's launch ratio {launch.group(1)} is outside the summary's "
                        f"{launch_range.group(1)}x to {launch_range.group(2)}x")
if cuda:
    worst = max((abs(float(m.group(1)) - 1) for m in re.finditer(
        r"^\| (?:kernel|rajaperf)/\S+ \|[^|]*\| nvcc \|[^|]*\| ([0-9.]+) \|", cuda, re.M)),
        default=None)
    bound = re.search(r"matmul at [0-9.]+% to ([0-9.]+)%\.", flat)
    checked += 1
    if worst is None or not bound or worst * 100 > float(bound.group(1)) + 0.05:
        problems.append(f"the cuda section's kernels against nvcc (worst {worst}) are not within the "
                        f"summary's bound")


# The README against the cupy section: kjit's speed over CuPy, and the times it quotes.
cupy = {m.group(1): (float(m.group(2)), float(m.group(3)), float(m.group(4))) for m in re.finditer(
    r"^\| (\S+) \| ([0-9.]+) \| cupy \| ([0-9.]+) \| [0-9.]+ \| ([0-9.]+)x \|$",
    section("cupy"), re.M)}
said = re.search(r"kjit compiles ([0-9.]+)x to ([0-9.]+)x faster, loads from its disk cache ([0-9.]+)x "
                 r"faster \(([0-9.]+) against ([0-9.]+) ms\) and enqueues a launch ([0-9.]+)x faster "
                 r"\(([0-9.]+) against ([0-9.]+) us", flat_readme)
needed = ["cache/cold_1_program", "cold_compile_vadd", "cache/warm_1_program", "launch_enqueue/empty"]
if not said or any(n not in cupy for n in needed):
    problems.append("the README's comparison with CuPy or the cupy section's rows were not found")
else:
    compiles = [cupy["cache/cold_1_program"][2], cupy["cold_compile_vadd"][2]]
    warm, launch_row = cupy["cache/warm_1_program"], cupy["launch_enqueue/empty"]
    pairs = [(said.group(1), min(compiles)), (said.group(2), max(compiles)),
             (said.group(3), warm[2]), (said.group(4), warm[0]), (said.group(5), warm[1]),
             (said.group(6), launch_row[2]), (said.group(7), launch_row[0] * 1000),
             (said.group(8), launch_row[1] * 1000)]
    for text, value in pairs:
        checked += 1
        step = 10 ** -len(text.split(".")[1]) if "." in text else 1
        if abs(float(text) - value) > step * 0.6:
            problems.append(f"README's comparison with CuPy says {text}; the cupy section measured "
                            f"{value:g}")


# The README's time to the first launch against the first-launch-cuda section (overlapped rows).
runs = {(int(m.group(1)), m.group(2)): float(m.group(3)) for m in re.finditer(
    r"^\| (\d+) \| (cold|warm) \| overlapped \|(?:[^|]*\|){4} ([0-9.]+) \|$",
    section("first-launch-cuda"), re.M)}
said = re.search(r"about (\d+) ms for one kernel, cold or warm .*? for 32 kernels (\d+) to (\d+) ms "
                 r"cold against (\d+) ms warm", flat_readme)
if not said or len(runs) != 4:
    problems.append("the README's time to the first launch or the first-launch-cuda rows were not "
                    "found")
else:
    one, low, high, warm32 = (float(x) for x in said.groups())
    for label, ok in [("1 program cold", abs(runs[(1, "cold")] / one - 1) <= 0.1),
                      ("1 program warm", abs(runs[(1, "warm")] / one - 1) <= 0.1),
                      ("32 programs cold", low <= runs[(32, "cold")] <= high),
                      ("32 programs warm", abs(runs[(32, "warm")] / warm32 - 1) <= 0.1)]:
        checked += 1
        if not ok:
            problems.append(f"README's time to the first launch disagrees with first-launch-cuda's "
                            f"{label} row")

print(f"{checked} repeated figures checked")
for problem in problems:
    print(problem)
sys.exit(1 if problems or checked < 5 else 0)
