#!/usr/bin/env python3
"""A bias beyond int32 at its accumulator's scale gives the right output (issue 29).

usage: oversized_bias_test.py BRICKYARD MODEL_DIR OUT_DIR

oversized_bias (make_models.py): activations of order 1e-9 next to biases of order 1, so two
layers' biases exceed int32 at scale s_in * s_w. Quantizing them by clipping made every output 0
while the run stayed bit-exact. Checked here on tiny's functional model:
- `brickyard run --strict` exits 0: bit-exact with the int8 reference, and no warning;
- its output (--out) against the float output that make_models.py computed with numpy (an
  independent reference): SQNR >= 20 dB, the same top-1, not all zero;
- `brickyard compile`'s quant.json says which layers' weight scales were widened; nothing
  says clipped.
"""
import ast
import json
import math
import os
import struct
import subprocess
import sys

LAYERS = ["Conv_9", "Gemm_24"]  # the two layers whose bias overflows at the plain scale


def read_npy(path):
    """The values of a little-endian float32 .npy file (numpy's format, versions 1 to 3)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(path + ": not a .npy file")
    size_bytes = 2 if data[6] == 1 else 4
    size = int.from_bytes(data[8:8 + size_bytes], "little")
    start = 8 + size_bytes
    header = ast.literal_eval(data[start:start + size].decode("latin1"))
    if header["descr"] != "<f4" or header["fortran_order"]:
        raise ValueError(path + ": expected C-ordered float32, got " + str(header))
    count = math.prod(header["shape"])
    return list(struct.unpack_from("<%df" % count, data, start + size))


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    print(f"$ {' '.join(cmd)}\n  exit {r.returncode}\n  stderr: {r.stderr.strip()}")
    return r


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    binary, model_dir, out_dir = sys.argv[1:]
    os.makedirs(out_dir, exist_ok=True)
    model = os.path.join(model_dir, "oversized_bias.onnx")
    common = ["--config", "tiny", "--calib-random", "2", "--quiet"]
    y_path = os.path.join(out_dir, "y.npy")
    if os.path.exists(y_path):
        os.remove(y_path)
    r = run([binary, "run", model, "--model", "func", "--input",
             os.path.join(model_dir, "oversized_bias.input.npy"), "--out", y_path, "--strict",
             *common])
    checks = [("run --strict: exit 0 (bit-exact, no warning)", r.returncode == 0)]

    want = read_npy(os.path.join(model_dir, "oversized_bias.output.npy"))
    got = read_npy(y_path) if os.path.exists(y_path) else [0.0] * len(want)
    noise = sum((a - b) ** 2 for a, b in zip(got, want))
    signal = sum(b * b for b in want)
    sqnr = 10 * math.log10(signal / noise) if noise > 0 else math.inf
    print("output:", " ".join(f"{v:.4f}" for v in got))
    print("numpy: ", " ".join(f"{v:.4f}" for v in want))
    print(f"SQNR against numpy: {sqnr:.1f} dB")
    checks.append(("the output is not all zero", any(v != 0 for v in got)))
    checks.append(("SQNR against numpy >= 20 dB", sqnr >= 20))
    checks.append(("top-1 as numpy's", got.index(max(got)) == want.index(max(want))))

    prog = os.path.join(out_dir, "program")
    r = run([binary, "compile", model, "-o", prog, *common])
    notes = []
    if r.returncode == 0:
        with open(os.path.join(prog, "quant.json")) as f:
            notes = json.load(f)["notes"]
    for n in notes:
        print("note:", n)
    for layer in LAYERS:
        checks.append((f"quant.json: {layer}'s weight scale widened",
                       any(n.startswith(f"'{layer}'") and "widened" in n for n in notes)))
    checks.append(("quant.json: nothing clipped", not any("clipped" in n for n in notes)))

    for name, ok in checks:
        print(("ok   " if ok else "FAIL ") + name)
    return 0 if all(ok for _, ok in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
