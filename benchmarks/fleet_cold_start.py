#!/usr/bin/env python3
"""Cold starts of N processes at once, each with an empty disk cache of its own (as N nodes would
have), with and without the remote tier: the wall time until every process has built and run
its programs, and how many compiles the whole fleet made. Each process is the cache worker
(tests/cache/cache_worker.cpp): it loads `--programs` distinct small programs, launches each and
checks the results. With the remote tier, all share a redis-server this script starts on a unix
socket. Prints a table, and with --markdown writes it into that file's fleet-<device> section.

On one machine the N processes share its cores, where a fleet's would each have a node: the
times show the compiles saved, not a fleet's wall time. The remote tier's timeout is raised to
10 s here, so that a process starved of a core by the others is not taken for a dead server.

usage: fleet_cold_start.py CACHE_WORKER [--device cpu] [--counts 1,8,64] [--programs 4]
                           [--reps 3] [--markdown docs/benchmarks.md]
"""
import argparse
import datetime
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

SOURCE = ('#include "scale.h"\n'
          "__global__ void scaled(const int* in, int* out, int n) {{\n"
          "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  if (i < n) out[i] = in[i] * SCALE + {salt};\n}}\n")


def run_fleet(worker, root, count, programs, device, url):
    """Seconds until `count` workers finish, and their compiles in total."""
    src = root / "src"
    env = dict(os.environ, KJIT_DEVICE=device, KJIT_CPU_THREADS="1")
    if url:
        env.update(KJIT_CACHE_REMOTE=url, KJIT_CACHE_REMOTE_TIMEOUT_MS="10000")
    else:
        env.pop("KJIT_CACHE_REMOTE", None)
    start = time.monotonic()
    procs = [subprocess.Popen([worker, str(src), "0", str(programs)],
                              env=dict(env, KJIT_CACHE_DIR=str(root / "nodes" / f"n{i}")),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
             for i in range(count)]
    outputs = [p.communicate()[0] for p in procs]
    seconds = time.monotonic() - start
    compiles = 0
    for p, out in zip(procs, outputs):
        m = re.search(r"compiles=(\d+) .*mismatches=(\d+)", out)
        if p.returncode != 0 or not m or m.group(2) != "0":
            sys.exit(f"a worker failed (exit {p.returncode}):\n{out}")
        compiles += int(m.group(1))
    return seconds, compiles


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("worker")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--counts", default="1,8,64")
    parser.add_argument("--programs", type=int, default=4)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--markdown")
    args = parser.parse_args()
    if not shutil.which("redis-server"):
        sys.exit("fleet_cold_start: redis-server is not installed (scripts/install-deps.sh)")
    base = pathlib.Path(tempfile.mkdtemp(prefix="kjit-fleet-"))
    sock = base / "redis.sock"
    server = subprocess.Popen(["redis-server", "--port", "0", "--unixsocket", str(sock), "--save",
                               "", "--appendonly", "no", "--dir", str(base)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    rows = []
    try:
        while not sock.exists():
            time.sleep(0.01)
        for count in [int(c) for c in args.counts.split(",")]:
            for mode in ("disk cache only", "remote tier"):
                times, compiles = [], []
                for rep in range(args.reps):
                    root = base / f"{count}-{mode[0]}-{rep}"
                    (root / "src").mkdir(parents=True)
                    (root / "src" / "scale.h").write_text("#define SCALE 3\n")
                    for salt in range(args.programs):
                        (root / "src" / f"scaled{salt}.cu").write_text(SOURCE.format(salt=salt))
                    subprocess.run(["redis-cli", "-s", str(sock), "FLUSHALL"],
                                   capture_output=True, check=True)
                    url = f"unix://{sock}" if mode == "remote tier" else None
                    t, c = run_fleet(args.worker, root, count, args.programs, args.device, url)
                    times.append(t)
                    compiles.append(c)
                    shutil.rmtree(root)
                rows.append((count, mode, statistics.median(times), statistics.median(compiles)))
                print(f"{count:3d} processes, {mode:15s}: {rows[-1][2]:.2f} s, "
                      f"{rows[-1][3]:.0f} compiles", flush=True)
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(base, ignore_errors=True)
    if args.markdown:
        write_markdown(args, rows)


def write_markdown(args, rows):
    section = f"fleet-{args.device}"
    cpus = os.cpu_count()
    lines = [f"<!-- {section}-begin -->",
             f"Measured {datetime.date.today().isoformat()} on `{args.device}` ({cpus} CPUs, every "
             f"process on them); {args.programs} programs per process, median of {args.reps} "
             "runs.", "",
             "| processes | cache | all finished (s) | compiles in the fleet |",
             "|---:|---|---:|---:|"]
    for count, mode, seconds, compiles in rows:
        lines.append(f"| {count} | {mode} | {seconds:.2f} | {compiles:.0f} |")
    lines.append(f"<!-- {section}-end -->")
    text = pathlib.Path(args.markdown).read_text()
    pattern = re.compile(rf"<!-- {section}-begin -->.*?<!-- {section}-end -->", re.S)
    if not pattern.search(text):
        sys.exit(f"{args.markdown} has no <!-- {section}-begin/end --> markers")
    pathlib.Path(args.markdown).write_text(pattern.sub(lambda _: "\n".join(lines), text))
    print(f"wrote the {section} section of {args.markdown}")


if __name__ == "__main__":
    main()
