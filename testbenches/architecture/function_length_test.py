#!/usr/bin/env python3
"""Tests of function_length.py on small trees written to a temporary folder."""
import os
import subprocess
import sys
import tempfile
import unittest

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "function_length.py")


def function(name, lines, lang="cpp"):
    """A function whose body spans exactly `lines` lines (braces included), with a lambda, a
    control block, a string holding a brace and a comment inside, which must not end it."""
    assert lines >= 6
    head = f"int {name}(int x) {{" if lang == "cpp" else f"static int {name}(int x) {{"
    body = ['  const char* s = "}";  // } in a comment', "  if (x) {", "    x += 1;", "  }"]
    if lang == "cpp":
        body[0] = '  auto f = [](int y) { return y + 1; }; const char* s = "}";'
    body += ["  x += 2;"] * (lines - 2 - len(body))
    return "\n".join([head] + body + ["}"]) + "\n"


class FunctionLength(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = self.tmp.name

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, path, text):
        full = os.path.join(self.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)

    def run_script(self, *args):
        r = subprocess.run([sys.executable, SCRIPT, "--root", self.root, *args],
                           capture_output=True, text=True)
        return r.returncode, r.stdout + r.stderr

    def test_counts_lines_of_cpp_and_c_functions(self):
        self.write("lib/src/a.cpp", "namespace x {\n" + function("twenty", 20) + "}\n")
        self.write("drv/b.c", "\n" + function("thirty", 30, "c"))
        rc, out = self.run_script("--max", "25", "lib", "drv")
        self.assertEqual(rc, 1, out)
        self.assertIn("drv/b.c:2: thirty (30 lines, limit 25)", out)
        self.assertNotIn("twenty (", out)
        self.assertIn("2 files, longest function 30 lines (drv/b.c:2: thirty); 1 over", out)
        rc, out = self.run_script("--max", "30", "lib", "drv")
        self.assertEqual(rc, 0, out)

    def test_per_folder_limits_longest_folder_wins(self):
        self.write("cli/cmd.cpp", function("run", 40))
        self.write("cli/sub/deep.cpp", function("deep", 12))
        self.write("spec/s.cpp", function("table", 40))
        rc, out = self.run_script("--max", "50", "--limit", "cli=30", "cli", "spec")
        self.assertEqual(rc, 1, out)
        self.assertIn("cli/cmd.cpp:1: run (40 lines, limit 30)", out)
        self.assertNotIn("table (", out)
        rc, out = self.run_script("--max", "50", "--limit", "cli=30", "--limit", "cli/sub=10",
                                  "cli", "spec")
        self.assertIn("cli/sub/deep.cpp:1: deep (12 lines, limit 10)", out)
        self.assertEqual(rc, 1, out)
        rc, out = self.run_script("--max", "50", "--limit", "cli=40", "cli", "spec")
        self.assertEqual(rc, 0, out)

    def test_bad_arguments_exit_2(self):
        self.write("a/x.cpp", function("f", 8))
        for args in (["--limit", "cli", "a"], ["--limit", "cli=0", "a"], ["--max", "x", "a"],
                     ["nosuch"], ["--max", "10"], ["--bogus", "a"]):
            rc, out = self.run_script(*args)
            self.assertEqual(rc, 2, f"{args}: {out}")
            self.assertIn("Usage:", out)


if __name__ == "__main__":
    unittest.main()
