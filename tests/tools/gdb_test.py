#!/usr/bin/env python3
"""gdb on CPU kernels (KJIT_DEBUG=1), driven as docs/guide.md's "Debugging kernels" tells a user:
a breakpoint at a kernel file's line, stopped at one thread of one block, prints the kernel's
locals, threadIdx and __shared__ memory, steps over a line and sees its effect, and walks the
stack, on a kernel whose threads run as a loop (saxpy) and one that runs on fibers (reduce_sum).
Also: a kernel loaded from the disk cache is registered as one just compiled, and without
KJIT_DEBUG gdb is told of nothing.

usage: gdb_test.py SAXPY_EXAMPLE PIPELINE_EXAMPLE KERNELS_DIR
Exits 77 (a skip) when gdb is not installed.
"""
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

SAXPY, PIPELINE, KERNELS = sys.argv[1], sys.argv[2], pathlib.Path(sys.argv[3])
GDB = shutil.which("gdb")


def line_of(file, text):
    """The 1-based line of `file` in kernels/ that holds `text`: the test follows the source."""
    for number, line in enumerate((KERNELS / file).read_text().splitlines(), 1):
        if text in line:
            return number
    raise AssertionError(f"{file} has no line with {text!r}")


class Gdb(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp(prefix="kjit-gdb-test-"))

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def gdb(self, program, breakpoint, commands, debug="1", threads="2", stops=True):
        """Runs `program` under gdb -batch; returns {command: its output} and the whole text.
        `stops`: the breakpoint is expected to stop the program (which is then killed)."""
        marker = "@@kjit@@"
        args = [GDB, "-batch", "-nx", "-ex", "set breakpoint pending on", "-ex",
                f"directory {KERNELS}", "-ex", f"break {breakpoint}", "-ex", "run"]
        for command in commands:
            args += ["-ex", f"echo {marker}{command}\\n", "-ex", command]
        args += ["-ex", f"echo {marker}end\\n"] + (["-ex", "kill"] if stops else [])
        args += ["--args", *program]
        env = dict(os.environ, KJIT_DEVICE="cpu", KJIT_DEBUG=debug, KJIT_CPU_THREADS=threads,
                   KJIT_CACHE_DIR=str(self.dir / "cache"))
        p = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
        text = p.stdout + p.stderr
        self.assertEqual(p.returncode, 0, text)
        outputs = {}
        parts = text.split(marker)
        for part in parts[1:]:
            command, _, output = part.partition("\n")
            outputs[command] = output
        return outputs, text

    def value(self, outputs, command):
        match = re.search(r"^\$\d+ = (.*)$", outputs[command], re.M)
        self.assertIsNotNone(match, f"{command}: {outputs[command]}")
        return match.group(1)

    def test_saxpy_stops_at_one_thread_and_shows_its_variables(self):
        line = line_of("saxpy.cu", "y[i] = a * x[i] + y[i];")
        program = [SAXPY, "--device", "cpu", "--log2-n", "12", "--streams", "1", "--chunks", "1"]
        commands = ["print threadIdx.x", "print blockIdx.x", "print blockDim.x", "print i",
                    "print a", "print x[i]", "print y[i]", "bt", f"list {line},{line}", "next",
                    "print (float) y[i]"]
        for attempt in ("compiled", "from the cache"):
            with self.subTest(attempt):
                out, text = self.gdb(program, f"saxpy.cu:{line} if threadIdx.x == 3 && "
                                              "blockIdx.x == 2", commands)
                self.assertIn(f"saxpy.cu:{line}", text)
                self.assertEqual(self.value(out, "print threadIdx.x"), "3")
                self.assertEqual(self.value(out, "print blockIdx.x"), "2")
                block = int(self.value(out, "print blockDim.x"))
                self.assertGreater(block, 3)
                self.assertEqual(int(self.value(out, "print i")), 2 * block + 3)
                a = float(self.value(out, "print a"))
                x = float(self.value(out, "print x[i]"))
                y = float(self.value(out, "print y[i]"))
                stepped = float(self.value(out, "print (float) y[i]"))
                self.assertAlmostEqual(stepped, a * x + y, delta=1e-4 * max(1.0, abs(a * x + y)))
                self.assertRegex(out["bt"], r"#0 .*saxpy<float>")
                self.assertIn("__kjit_block_", out["bt"])
                self.assertIn("y[i] = a * x[i] + y[i];", out[f"list {line},{line}"])

    def test_a_barrier_kernel_on_fibers_shows_shared_memory(self):
        line = line_of("reduction.cu", "atomicAdd(sum, partial[0]);")
        program = [PIPELINE, "--device", "cpu", "--side", "64", "--steps", "50"]
        commands = ["print t", "print threadIdx.x", "print blockIdx.x", "print partial[0]",
                    "print *sum", "next", "print (float) *sum", "bt"]
        # One worker: block 0 adds first, so *sum goes from 0 to its total.
        out, text = self.gdb(program, f"reduction.cu:{line} if blockIdx.x == 0", commands,
                             threads="1")
        self.assertEqual(self.value(out, "print t"), "0")
        self.assertEqual(self.value(out, "print threadIdx.x"), "0")
        self.assertEqual(self.value(out, "print blockIdx.x"), "0")
        total = float(self.value(out, "print partial[0]"))
        self.assertGreater(total, 0)
        self.assertEqual(float(self.value(out, "print *sum")), 0.0)
        self.assertEqual(float(self.value(out, "print (float) *sum")), total)
        self.assertRegex(out["bt"], r"#0 .*reduce_sum<float>")
        self.assertIn("__kjit_thread_", out["bt"])  # the fiber's entry

    def test_without_kjit_debug_gdb_is_told_of_nothing(self):
        line = line_of("saxpy.cu", "y[i] = a * x[i] + y[i];")
        program = [SAXPY, "--device", "cpu", "--log2-n", "10", "--streams", "1", "--chunks", "1"]
        _, text = self.gdb(program, f"saxpy.cu:{line}", [], debug="0", stops=False)
        self.assertNotIn("hit Breakpoint", text)
        self.assertIn("exited normally", text)
        self.assertIn("every value equals the host's", text)


if __name__ == "__main__":
    if GDB is None:
        print("SKIPPED: gdb is not installed (apt-get install gdb)")
        sys.exit(77)
    unittest.main(argv=sys.argv[:1], verbosity=2)
