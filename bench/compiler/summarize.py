#!/usr/bin/python3
"""Markdown tables from `brickyard run --report` JSON files (bench/compiler/run.sh).

    /usr/bin/python3 bench/compiler/summarize.py networks REPORT.json...   one line per run
    /usr/bin/python3 bench/compiler/summarize.py layers REPORT.json        per-layer table
    /usr/bin/python3 bench/compiler/summarize.py accuracy Y.npy LABELS.npy FLOAT.npy
"""
import json
import os
import sys


def load(path):
    with open(path) as f:
        r = json.load(f)
    r["_name"] = os.path.splitext(os.path.basename(path))[0]
    return r


def totals(r):
    macs = sum(l["macs"] for l in r["layers"])
    cycles = sum(l["cycles"] for l in r["layers"])
    cpu_cycles = sum(l["cycles"] for l in r["layers"] if l["on_cpu"])
    counters = lambda k: sum(l["counters"].get(k, 0) for l in r["layers"])  # noqa: E731
    return macs, cycles, cpu_cycles, counters


def networks(paths):
    print("| run | config | model | layers | MACs | cycles | utilization | CPU-layer cycles "
          "| DRAM read | DRAM written | TD skipped MACs | Boveda bytes | bit-exact | wall s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for p in paths:
        r = load(p)
        macs, cycles, cpu, c = totals(r)
        util = macs / (cycles * r["peak_macs_per_cycle"]) if r["model"] == "rtl" else 0
        print(f"| {r['_name']} | {r['config']} | {r['model']} | {len(r['layers'])} | "
              f"{macs / 1e6:.1f} M | {cycles / 1e6:.2f} M | {100 * util:.1f}% | "
              f"{cpu / 1e6:.2f} M | {c('DMA_READ_BYTES') / 2**20:.1f} MiB | "
              f"{c('DMA_WRITE_BYTES') / 2**20:.1f} MiB | {c('MACS_SKIPPED') / 1e6:.1f} M | "
              f"{c('COMPRESSED_BYTES') / 2**20:.2f} MiB | {r['check']['bit_exact']} | "
              f"{r['wall_seconds']:.0f} |")


def layers(path):
    r = load(path)
    peak = r["peak_macs_per_cycle"]
    print("| # | layer | kernel | MACs | cycles | ideal | utilization | DRAM read | DRAM written |")
    print("|---|---|---|---|---|---|---|---|---|")
    for l in r["layers"]:
        c = l["counters"]
        util = f"{100 * l['utilization']:.1f}%" if l["macs"] else "-"
        kernel = l["kernel"] + (" (cpu)" if l["on_cpu"] else "")
        print(f"| {l['index']} | {l['name']} | {kernel} | {l['macs'] / 1e6:.2f} M | "
              f"{l['cycles'] / 1e3:.1f} k | {l['ideal_cycles'] / 1e3:.1f} k | {util} | "
              f"{c.get('DMA_READ_BYTES', 0) / 1024:.0f} KiB | "
              f"{c.get('DMA_WRITE_BYTES', 0) / 1024:.0f} KiB |")
    macs, cycles, _, _ = totals(r)
    print(f"| | total | | {macs / 1e6:.1f} M | {cycles / 1e6:.2f} M | "
          f"{macs / peak / 1e6:.2f} M | {100 * macs / (cycles * peak):.1f}% | | |")


def accuracy(y_path, labels_path, float_path):
    import numpy as np
    y = np.load(y_path)
    labels = np.load(labels_path)
    f = np.load(float_path)
    int8 = float((y.argmax(1) == labels).mean())
    flt = float((f.argmax(1) == labels).mean())
    agree = float((y.argmax(1) == f.argmax(1)).mean())
    print(f"| {len(labels)} | {100 * flt:.2f}% | {100 * int8:.2f}% | {100 * (int8 - flt):+.2f} | "
          f"{100 * agree:.2f}% |")


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    what, args = sys.argv[1], sys.argv[2:]
    if what == "networks":
        networks(args)
    elif what == "layers":
        layers(args[0])
    elif what == "accuracy":
        accuracy(*args)
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
