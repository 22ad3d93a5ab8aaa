#!/usr/bin/env python3
"""`brickyard run` warns when a bit-exact output says little, and fails on it with --strict.

usage: strict_run_test.py BRICKYARD MODEL_DIR

mlp on tiny's functional model (SQNR about 38 dB against the float model): no warning at the
default threshold (10 dB); a warning and exit 0 above its SQNR (--min-sqnr 200); the warning, an
error line and exit 1 with --strict.
"""
import os
import subprocess
import sys


def run(binary, model_dir, *extra):
    model = os.path.join(model_dir, "mlp.onnx")
    cmd = [binary, "run", model, "--config", "tiny", "--model", "func", "--input",
           os.path.join(model_dir, "mlp.input.npy"), "--calib-random", "2", "--quiet", *extra]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    print(f"$ {' '.join(cmd)}\n  exit {r.returncode}\n  stderr: {r.stderr.strip()}")
    return r


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, model_dir = sys.argv[1:]
    checks = []
    r = run(binary, model_dir)
    checks.append(("default: exit 0, no warning", r.returncode == 0 and "warning" not in r.stderr))
    r = run(binary, model_dir, "--min-sqnr", "200")
    checks.append(("--min-sqnr 200: exit 0 and the warning",
                   r.returncode == 0 and "agrees poorly with the float model" in r.stderr))
    r = run(binary, model_dir, "--min-sqnr", "200", "--strict")
    checks.append(("--strict: exit 1, the warning and the error",
                   r.returncode == 1 and "agrees poorly" in r.stderr and "--strict" in r.stderr))
    r = run(binary, model_dir, "--min-sqnr", "lots")
    checks.append(("a bad --min-sqnr: exit 2", r.returncode == 2 and "--min-sqnr" in r.stderr))
    failed = [name for name, ok in checks if not ok]
    for name, ok in checks:
        print(("ok   " if ok else "FAIL ") + name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
