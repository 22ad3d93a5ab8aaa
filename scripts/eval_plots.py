#!/usr/bin/env python3
"""Plots of a `brickyard eval` report (docs/evaluation.md, "Plots").

Usage: eval_plots.py REPORT_DIR   reads REPORT_DIR/report.json, writes the PNGs next to it.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

CAUSES = [("compute_cycles", "compute"), ("stall_dma_cycles", "DMA wait"),
          ("stall_dependency_cycles", "dependency"), ("stall_host_cycles", "host"),
          ("stall_other_cycles", "other busy")]


def ran(report):
    return [c for c in report["configs"] if c.get("layers")]


def grouped_bars(ax, configs, values, labels):
    n = max(len(configs), 1)
    width = 0.8 / n
    for k, (c, v) in enumerate(zip(configs, values)):
        ax.bar([i + k * width for i in range(len(v))], v, width, label=c["name"])
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(labels))])
    ax.set_xticklabels(labels, rotation=45, ha="right", fontsize=7)
    ax.legend(fontsize=7)


def layer_labels(c):
    return [f'{l["index"]} {l["layer"][:14]}' for l in c["layers"]]


def main(out):
    report = json.load(open(os.path.join(out, "report.json")))
    configs = ran(report)
    first = configs[0] if configs else {"layers": []}
    labels = layer_labels(first)

    fig, ax = plt.subplots(figsize=(8, 4))
    grouped_bars(ax, configs, [[100 * l["utilization"] for l in c["layers"]] for c in configs],
                 labels)
    ax.set_ylabel("utilization (%)")
    ax.set_title("Per-layer utilization (MACs / (cycles x peak MACs per cycle))")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "utilization.png"), dpi=100)

    fig, ax = plt.subplots(figsize=(8, 4))
    n = max(len(configs), 1)
    width = 0.8 / n
    for k, c in enumerate(configs):
        bottom = [0] * len(c["layers"])
        xs = [i + k * width for i in range(len(c["layers"]))]
        for key, name in CAUSES:
            v = [l[key] for l in c["layers"]]
            ax.bar(xs, v, width, bottom=bottom, color=f"C{CAUSES.index((key, name))}",
                   label=name if k == 0 else None, edgecolor="black", linewidth=0.3)
            bottom = [b + x for b, x in zip(bottom, v)]
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(labels))])
    ax.set_xticklabels(labels, rotation=45, ha="right", fontsize=7)
    ax.set_ylabel("cycles")
    ax.set_title("Cycles by cause per layer (bars: " + ", ".join(c["name"] for c in configs) + ")")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "cycles.png"), dpi=100)

    fig, ax = plt.subplots(figsize=(6, 4))
    parts = [k for k in (configs[0]["energy"] if configs else {}) if k != "total_pj"]
    bottom = [0.0] * len(configs)
    for p in parts:
        v = [c["energy"][p]["pj"] / 1e6 for c in configs]
        ax.bar([c["name"] for c in configs], v, bottom=bottom, label=p)
        bottom = [b + x for b, x in zip(bottom, v)]
    ax.set_ylabel("energy per run (uJ)")
    ax.set_title("Energy by component")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "energy.png"), dpi=100)

    fig, ax = plt.subplots(figsize=(8, 4))
    td = [c for c in configs if c["tensordash"] and c is not first] or configs[1:]
    grouped_bars(ax, td, [[l["speedup_vs_first"] or 0 for l in c["layers"]] for c in td], labels)
    ax.axhline(1.0, color="black", linewidth=0.5)
    ax.set_ylabel(f'speedup vs {first.get("name", "-")}')
    ax.set_title("Per-layer speedup" + (" (TensorDash configs)" if any(
        c["tensordash"] for c in td) else ""))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "speedup.png"), dpi=100)

    fig, ax = plt.subplots(figsize=(6, 4))
    names, with_b, without_b = [], [], []
    for c in configs:
        t = c["totals"]
        names.append(c["name"])
        moved = t["dram_read_bytes"] + t["dram_write_bytes"]
        with_b.append(moved / 1e3)
        raw = t.get("dram_bytes_uncompressed")
        without_b.append((raw if raw is not None else moved) / 1e3)
    xs = range(len(names))
    ax.bar([x - 0.2 for x in xs], without_b, 0.4, label="without Boveda (weights uncompressed)")
    ax.bar([x + 0.2 for x in xs], with_b, 0.4, label="as run")
    ax.set_xticks(list(xs))
    ax.set_xticklabels(names)
    ax.set_ylabel("DRAM traffic (kB)")
    ax.set_title("DRAM traffic with and without Boveda")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "dram_traffic.png"), dpi=100)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
