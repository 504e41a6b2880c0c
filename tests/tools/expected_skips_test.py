#!/usr/bin/env python3
"""scripts/summarize_tests.py --expected: a run with a skip its list does not expect, or a list
entry that no skip matched, fails and names it; a run that skips exactly what is listed passes."""
import pathlib
import subprocess
import sys
import tempfile
import unittest

SCRIPT = pathlib.Path(__file__).resolve().parents[2] / "scripts" / "summarize_tests.py"


def report(cases):
    """A CTest JUnit report of `cases`: (name, "pass" | "skip" | "fail", output)."""
    body = []
    for name, status, output in cases:
        inner = {"skip": '<skipped message="Disabled"/>', "fail": '<failure message="Failed"/>',
                 "pass": ""}[status]
        body.append(f'<testcase name="{name}" status="{"run" if status != "fail" else "fail"}">'
                    f"{inner}<system-out>{output}</system-out></testcase>")
    return f'<testsuite tests="{len(cases)}">{"".join(body)}</testsuite>'


class ExpectedSkips(unittest.TestCase):
    def setUp(self):
        self.dir = pathlib.Path(tempfile.mkdtemp())
        (self.dir / "list.txt").write_text(
            "# a comment\n"
            "cuda.*                 no device matches 'cuda'\n"
            "core.docs.api          Doxygen is not installed\n")

    def run_check(self, cases):
        (self.dir / "r.xml").write_text(report(cases))
        return subprocess.run([sys.executable, str(SCRIPT), str(self.dir / "r.xml"), "--expected",
                               str(self.dir / "list.txt")], capture_output=True, text=True)

    def expected_cases(self):
        return [("cuda.Kernels.Saxpy", "skip", "no device matches 'cuda'. Devices present"),
                ("core.docs.api", "skip", "SKIPPED: Doxygen is not installed"),
                ("cpu.Kernels.Saxpy", "pass", "")]

    def test_skips_as_listed_pass(self):
        p = self.run_check(self.expected_cases())
        self.assertEqual(p.returncode, 0, p.stdout)
        self.assertIn("0 not as", p.stdout)

    def test_a_skip_the_list_does_not_name_fails_naming_it(self):
        p = self.run_check(self.expected_cases() + [
            ("core.tools.bitcode_recipes", "skip", "SKIPPED: clang++-19 is not installed")])
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("UNEXPECTED SKIP core.tools.bitcode_recipes: clang++-19 is not installed",
                      p.stdout)

    def test_a_listed_test_skipping_for_another_reason_fails(self):
        cases = self.expected_cases()
        cases[0] = ("cuda.Kernels.Saxpy", "skip", "SKIPPED: NVRTC is not installed")
        p = self.run_check(cases)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("UNEXPECTED SKIP cuda.Kernels.Saxpy", p.stdout)

    def test_a_listed_skip_that_did_not_happen_fails(self):
        p = self.run_check(self.expected_cases()[:1] + [("core.docs.api", "pass", "")])
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("EXPECTED SKIP NOT SEEN", p.stdout)
        self.assertIn("'core.docs.api'", p.stdout)

    def test_a_malformed_list_fails(self):
        (self.dir / "list.txt").write_text("cuda.* without-a-reason\n")
        p = self.run_check(self.expected_cases())
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("cannot read the expected skips", p.stdout)

    def test_an_included_lists_entries_are_expected_and_required(self):
        (self.dir / "more.txt").write_text("include list.txt\n"
                                           "core.Hiprtc.*          hipRTC is not installed\n")
        cases = self.expected_cases() + [
            ("core.Hiprtc.Compiles", "skip", "SKIPPED: hipRTC is not installed (libhiprtc.so)")]
        (self.dir / "r.xml").write_text(report(cases))
        run = [sys.executable, str(SCRIPT), str(self.dir / "r.xml"), "--expected",
               str(self.dir / "more.txt")]
        p = subprocess.run(run, capture_output=True, text=True)
        self.assertEqual(p.returncode, 0, p.stdout)
        # An entry of the included list that no skip matched is named with its own file and line.
        (self.dir / "r.xml").write_text(report([c for c in cases if c[0] != "core.docs.api"]))
        p = subprocess.run(run, capture_output=True, text=True)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("EXPECTED SKIP NOT SEEN " + str(self.dir / "list.txt") + ":3", p.stdout)

    def test_a_list_that_includes_itself_fails(self):
        (self.dir / "list.txt").write_text("include list.txt\n")
        p = self.run_check(self.expected_cases())
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertIn("includes itself", p.stdout)


if __name__ == "__main__":
    unittest.main()
