#!/usr/bin/python3
"""The torchvision zoo table (bench/compiler/zoo.sh): one Markdown row per network from
OUT_DIR/<net>.json (brickyard run's report), OUT_DIR/<net>.out.npy (its output) and
OUT_DIR/models/<net>.output.npy (torch's fp32 output).

    /usr/bin/python3 bench/compiler/zoo_table.py OUT_DIR NET...

Columns: MACs, cycles, utilization (MACs / (cycles x peak)), the share of the cycles spent in
layers the CPU runs, the layers on the CPU, bit-exactness against the int8 reference, the SQNR
of the int8 output against the float model, and how many of torch's top-5 classes are in the
int8 output's top 5 (and whether the top-1 agrees); for a class map (segmentation), the share
of pixels whose class agrees. A network without a report is a FAIL row
with the first error line of its log.
"""
import glob
import json
import os
import sys

import numpy as np


def fmt(v, unit=""):
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(v) >= div:
            return f"{v / div:.2f}{suffix}{unit}"
    return f"{v:.0f}{unit}"


def first_error(out, net):
    for log in sorted(glob.glob(os.path.join(out, net + ".*.log"))):
        for line in open(log, errors="replace"):
            if "error:" in line or "FAIL" in line:
                return line.strip()[:160]
    return "no report"


def row(out, net):
    path = os.path.join(out, net + ".json")
    if not os.path.exists(path):
        return f"| {net} | FAIL: {first_error(out, net)} | | | | | | | | |"
    r = json.load(open(path))
    layers = r["layers"]
    macs = sum(l["macs"] for l in layers)
    cycles = r["total_cycles"]
    cpu = sum(l["cycles"] for l in layers if l["on_cpu"])
    cpu_layers = sum(1 for l in layers if l["on_cpu"])
    check = r["check"]
    util = macs / (cycles * r["peak_macs_per_cycle"]) if r["model"] == "rtl" and cycles else None
    agree = "-"
    ours, ref = os.path.join(out, net + ".out.npy"), os.path.join(out, "models", net + ".output.npy")
    if os.path.exists(ours) and os.path.exists(ref):
        a, b = np.load(ours), np.load(ref)
        if a.ndim == 4 and a.shape[2] * a.shape[3] > 1:  # a class map: per pixel
            same = (a.argmax(axis=1) == b.argmax(axis=1)).mean()
            agree = f"pixels {100 * same:.2f}%"
        else:
            a, b = a.reshape(-1), b.reshape(-1)
            top_a, top_b = set(np.argsort(-a)[:5]), set(np.argsort(-b)[:5])
            agree = f"{len(top_a & top_b)}/5, top-1 {'yes' if a.argmax() == b.argmax() else 'no'}"
    model = r["model"]
    return (f"| {net} | {fmt(macs)} | {fmt(cycles)} ({model}) | "
            f"{'-' if util is None else f'{100 * util:.1f}%'} | "
            f"{100 * cpu / cycles:.1f}% | {cpu_layers} of {len(layers)} | "
            f"{'yes' if check['bit_exact'] else 'NO'} | {check['float']['sqnr_db']:.1f} dB | {agree} |")


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    print("| network | MACs | cycles (model) | utilization | CPU share | layers on the CPU | "
          "bit-exact | SQNR vs float | agreement with torch fp32 |")
    print("|---|---:|---:|---:|---:|---:|---|---:|---|")
    for net in sys.argv[2:]:
        print(row(out, net))


if __name__ == "__main__":
    main()
