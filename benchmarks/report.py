#!/usr/bin/env python3
"""Turns a Google Benchmark JSON file into ratio rows and a section of docs/benchmarks.md.

Benchmarks named <case>/kjit and <case>/<baseline> are paired: each pair gives a row
`ratio <case> <kjit time / baseline time>` (below 1: kjit is faster). Benchmarks named
cold_compile/<kernel> give `compile <kernel> <milliseconds>`. Medians of repetitions are used when
the run has them.
"""
import argparse
import datetime
import json
import math
import re
import sys


def bandwidths(data):
    """name -> median bytes per second, for benchmarks that count bytes."""
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name", "median") == "median" and "bytes_per_second" in b:
            out[re.sub(r"/(real|manual)_time(_median)?$", "", b.get("run_name", b["name"]))] = b["bytes_per_second"]
    return out


def medians(data):
    """name -> (median real time in ms, repetitions)."""
    out = {}
    has_aggregates = any(b.get("run_type") == "aggregate" for b in data["benchmarks"])
    for b in data["benchmarks"]:
        if has_aggregates and b.get("aggregate_name") != "median":
            continue
        name = re.sub(r"/(real|manual)_time(_median)?$", "", b["run_name"] if has_aggregates else b["name"])
        name = re.sub(r"/iterations:\d+$", "", name)
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
        reps = b.get("repetitions", 1)
        out[name] = (b["real_time"] * scale, reps)
    return out


def build_rows(times):
    ratios, compiles = [], []
    for name, (t, _) in sorted(times.items()):
        if name.endswith("/kjit"):
            case = name[: -len("/kjit")]
            for other, (bt, _) in sorted(times.items()):
                if other.startswith(case + "/") and other != name:
                    ratios.append((case, other.rsplit("/", 1)[1], t, bt))
        elif name.startswith("cold_compile/") and name.count("/") == 1:
            compiles.append((name.split("/", 1)[1], t))
    return ratios, compiles


def geometric_mean(ratios):
    """The geometric mean of kjit time / baseline time over `ratios`' rows."""
    return math.exp(sum(math.log(t / bt) for _, _, t, bt in ratios) / len(ratios))


def markdown(section, context, ratios, compiles, bandwidth, reps, geomean=False):
    who = f"`{context.get('kjit_device', '?')}`"
    if "kjit_threads" in context:
        who += (f", kjit with {context['kjit_threads']} worker threads, OpenMP with "
                f"{context.get('openmp_threads', '?')}")
    lines = [f"<!-- {section}-begin -->",
             f"Measured {datetime.date.today().isoformat()} on {who} (host {context.get('host_name', '?')}, "
             f"{context.get('num_cpus', '?')} CPUs); median of {reps} repetitions.",
             "",
             "| case | kjit (ms) | baseline | baseline (ms) | kjit time / baseline | kjit speed vs baseline |",
             "|---|---:|---|---:|---:|---:|"]
    for case, baseline, t, bt in ratios:
        lines.append(f"| {case} | {t:.4g} | {baseline} | {bt:.4g} | {t / bt:.3f} | {bt / t:.2f}x |")
    if geomean and ratios:
        g = geometric_mean(ratios)
        lines += ["", f"Geometric mean over the {len(ratios)} cases: kjit time / baseline {g:.3f}, "
                      f"kjit {1 / g:.2f}x the baseline's speed."]
    if compiles:
        lines += ["", "| kernel | cold compile to a launchable kernel (ms) |", "|---|---:|"]
        for kernel, t in compiles:
            lines.append(f"| {kernel} | {t:.1f} |")
    if bandwidth:
        lines += ["", "| case | bandwidth (GB/s) |", "|---|---:|"]
        for name, bps in sorted(bandwidth.items()):
            lines.append(f"| {name} | {bps / 1e9:.1f} |")
    lines.append(f"<!-- {section}-end -->")
    return "\n".join(lines)


def replace_section(path, section, block):
    """Replaces the text between <!-- section-begin --> and <!-- section-end --> in `path`
    (markers included) with `block`, which carries the markers itself."""
    text = open(path).read()
    pattern = re.compile(rf"<!-- {section}-begin -->.*?<!-- {section}-end -->", re.S)
    if not pattern.search(text):
        sys.exit(f"{path} has no <!-- {section}-begin/end --> markers")
    open(path, "w").write(pattern.sub(lambda _: block, text))
    print(f"wrote the {section} section of {path}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("results")
    parser.add_argument("--markdown", help="file whose section to replace")
    parser.add_argument("--section", default="cpu")
    parser.add_argument("--geomean", action="store_true",
                        help="also state the geometric mean of the ratios")
    args = parser.parse_args()
    with open(args.results) as f:
        data = json.load(f)
    times = medians(data)
    reps = max((r for _, r in times.values()), default=1)
    ratios, compiles = build_rows(times)
    for case, baseline, t, bt in ratios:
        unit, scale = ("us", 1e3) if max(t, bt) < 0.1 else ("ms", 1.0)
        print(f"ratio {case} {t / bt:.3f}   (kjit {t * scale:.2f} {unit}, {baseline} {bt * scale:.2f} {unit})")
    if args.geomean and ratios:
        print(f"geomean {geometric_mean(ratios):.3f}")
    for kernel, t in compiles:
        print(f"compile {kernel} {t:.1f} ms")
    for name, bps in sorted(bandwidths(data).items()):
        print(f"bandwidth {name} {bps / 1e9:.1f} GB/s")
    if args.markdown:
        replace_section(args.markdown, args.section,
                        markdown(args.section, data.get("context", {}), ratios, compiles,
                                 bandwidths(data), reps, args.geomean))
    return 0


if __name__ == "__main__":
    sys.exit(main())
