#!/usr/bin/env python3
"""CuPy's RawModule against kjit on the same kernels, on the GPU machine (which has CuPy).

Measures with CuPy what kjit's CUDA and cache benchmarks measured earlier in the same run, the
same way, and writes one Google Benchmark-style JSON that holds both sides as <case>/kjit and
<case>/cupy, for report.py to turn into ratio rows and the `cupy` section of docs/benchmarks.md:
  - cold_compile_vadd: kernels/vadd.cu to a launchable kernel, no cache (kjit: cache off; CuPy: the
    source with a comment new each time, so it compiles with NVRTC, stores and loads);
  - cache/cold and cache/warm: a new program object to a launchable kernel, the source of
    benchmarks/cache_warm_start.cpp, compiled (a fresh source each time) or read from a filled
    disk cache;
  - launch_enqueue/empty: enqueueing an empty kernel on the device's stream.
CuPy's in-memory memo of modules is cleared before each timed load, and timed on its own.
Usage: cupy_rawmodule.py --kernels DIR --kjit-cuda JSON --kjit-cache JSON --out JSON [--reps N]
Exits 0 with a message when CuPy is not installed.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (beside this file)


def program_source(salt):
    """The salted program of benchmarks/cache_warm_start.cpp, character for character."""
    return (f"__device__ float twist(float v) {{ return v * {salt}.0f + 1.0f / ({salt}.0f + v * v); }}\n"
            f"__global__ void k{salt}(float a, const float* x, float* y, int n) {{\n"
            "  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
            "  if (i < n) y[i] = a * twist(x[i]) + y[i];\n}\n")


def median_ms(reps, once):
    """Median over `reps` of once(), which returns milliseconds."""
    return statistics.median(once() for _ in range(reps))


def timed_ms(fn):
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1e3


def entry(name, ms, reps):
    return {"name": name + "/real_time_median", "run_name": name, "run_type": "aggregate",
            "aggregate_name": "median", "real_time": ms, "time_unit": "ms", "repetitions": reps}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kernels", required=True)
    parser.add_argument("--kjit-cuda", required=True)
    parser.add_argument("--kjit-cache", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    # CuPy reads its cache directory when it is imported: a new, empty one for this run.
    root = tempfile.mkdtemp(prefix="kjit-cupy-")
    os.environ["CUPY_CACHE_DIR"] = root
    try:
        import cupy
    except ImportError as e:
        print(f"cupy: skipped, CuPy cannot be imported ({e})")
        return 0
    with open(args.kjit_cuda) as f:
        kjit_cuda = json.load(f)
    with open(args.kjit_cache) as f:
        kjit_cache = json.load(f)
    kjit = {**report.medians(kjit_cuda), **report.medians(kjit_cache)}

    cupy.cuda.Device(0).use()
    cupy.zeros(1).sum().get()  # context and CuPy's own start-up, outside every timing
    fresh = iter(range(1_000_000))

    # CuPy also remembers modules in memory, by source, for the process's lifetime: a new
    # RawModule of the same source costs microseconds. kjit has no such memo (a new Program reads
    # the disk cache), so every timed load starts with CuPy's memo cleared, outside the timing.
    clear_memo = getattr(cupy._util, "clear_memo", None)
    if clear_memo is None:
        sys.exit("cupy: cupy._util.clear_memo is missing: CuPy's in-memory memo cannot be cleared, "
                 "so its disk cache cannot be measured")

    def load(code, name):
        module = cupy.RawModule(code=code, name_expressions=[name])
        return module.get_function(name)  # compiles (or reads the cache) and loads

    def memo_ms():
        """A new RawModule of a source this process already loaded: CuPy's memory memo."""
        load(program_source(1), "k1")
        return timed_ms(lambda: load(program_source(1), "k1"))

    with open(os.path.join(args.kernels, "vadd.cu")) as f:
        vadd = f.read()

    def cold_vadd():
        # A comment of its own makes each source new to CuPy's cache; kjit's side compiles the
        # same source with the cache off.
        code = vadd + f"\n// {next(fresh)}\n"
        clear_memo()
        return timed_ms(lambda: load(code, "vadd"))

    salts = iter(range(1000, 1_000_000))

    def cold_program():
        salt = next(salts)
        clear_memo()
        return timed_ms(lambda: load(program_source(salt), f"k{salt}"))

    load(program_source(0), "k0")  # fills the cache for the warm case

    def warm_program():
        clear_memo()
        return timed_ms(lambda: load(program_source(0), "k0"))

    empty = load("__global__ void empty_kernel() {}", "empty_kernel")
    launches = 20000

    def launch_ms():
        stream = cupy.cuda.get_current_stream()
        stream.synchronize()
        start = time.perf_counter()
        for _ in range(launches):
            empty((1,), (1,), ())
        elapsed = time.perf_counter() - start
        stream.synchronize()
        return elapsed * 1e3 / launches

    cases = [("cold_compile_vadd", "cold_compile_vadd/kjit", cold_vadd),
             ("cache/cold_1_program", "cache/cold/1/1/0", cold_program),
             ("cache/warm_1_program", "cache/warm/1/1/0", warm_program),
             ("launch_enqueue/empty", "launch_enqueue/empty/kjit", launch_ms)]
    benchmarks = []
    for case, kjit_name, measure in cases:
        measure()  # one unmeasured run, as Google Benchmark's first iterations
        cupy_ms = median_ms(args.reps, measure)
        benchmarks.append(entry(case + "/cupy", cupy_ms, args.reps))
        if kjit_name in kjit:
            kjit_ms, kjit_reps = kjit[kjit_name]
            benchmarks.append(entry(case + "/kjit", kjit_ms, kjit_reps))
        else:
            print(f"cupy: kjit's {kjit_name} is not in this run's results; {case} has no ratio")
    memo = median_ms(args.reps, memo_ms)
    print(f"cupy: a new RawModule of a source loaded before in the process: {memo * 1e3:.1f} us "
          "(its in-memory memo; kjit has none)")
    benchmarks.append(entry("cupy_memory_memo/cupy", memo, args.reps))
    context = dict(kjit_cuda.get("context", {}))
    context["cupy"] = cupy.__version__
    with open(args.out, "w") as f:
        json.dump({"context": context, "benchmarks": benchmarks}, f, indent=1)
    print(f"cupy {cupy.__version__}: wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
