#!/usr/bin/python3
"""Per-layer TensorDash tables of a `brickyard eval` against a dense baseline.

    /usr/bin/python3 bench/eval/td_layers.py OUT_DIR/NET [BASE] [TD] [--all]

Reads NET's layers.csv (brickyard eval: one row per layer and config) and prints, for the
TensorDash config TD (default td8) against the baseline BASE (default `default`):

  * a table per layer kind (all rows of a kind summed): MACs, the share of the dense MAC slots
    TensorDash skipped (MACS_SKIPPED / (MACS + MACS_SKIPPED)),
    the TensorDash config's cycles by cause, the baseline's cycles and the speedup;
  * with --all, the same columns for every layer;
  * every layer below 1.2x with what bounds it: the cause with the most cycles on the
    TensorDash config (compute, DMA wait, dependency, host, other busy) and its counter.

The causes partition a layer's cycles (docs/evaluation.md).
"""
import csv
import os
import sys

CAUSES = [
    ("compute_cycles", "compute", "EXEC_ACTIVE_CYCLES: beats enter the array"),
    ("stall_dma_cycles", "DMA wait", "WAIT_DMA_CYCLES"),
    ("stall_dependency_cycles", "dependency", "WAIT_DEPENDENCY_CYCLES"),
    ("stall_host_cycles", "host", "total - BUSY_CYCLES: the host issues or computes"),
    ("stall_other_cycles", "other busy",
     "BUSY_CYCLES - the above: fill, drain, banks, the feeder, the moves' local writes"),
]


def shape_class(row):
    """A layer's class: its kind; the network's first layer (the stem) on its own."""
    return "conv, the stem" if row["index"] == "0" else row["kind"]


def fmt(n):
    n = float(n)
    for unit, div in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(n) >= div:
            return f"{n / div:.2f}{unit}"
    return f"{n:.0f}"


def layer_table(pairs, base, td):
    print("| # | layer | kind | kernel on " + td + " | MACs | skipped | " +
          " | ".join(name for _, name, _ in CAUSES) + f" | {td} | {base} | speedup |")
    print("|---:|---|---|---|---:|---:|" + "---:|" * len(CAUSES) + "---:|---:|---:|")
    for b, t in pairs:
        macs, skipped = int(t["macs"]), int(t["td_macs_skipped"] or 0)
        slots = int(t["macs_issued"]) + skipped
        share = f"{100 * skipped / slots:.0f}%" if slots else "-"
        print(f"| {t['index']} | {t['layer']} | {t['kind']} | `{t['kernel']}` | {fmt(macs)} | "
              f"{share} | " + " | ".join(fmt(t[k]) for k, _, _ in CAUSES) +
              f" | {fmt(t['total_cycles'])} | {fmt(b['total_cycles'])} | "
              f"{int(b['total_cycles']) / int(t['total_cycles']):.2f}x |")
    print()


def main():
    args = [a for a in sys.argv[1:] if a != "--all"]
    if not args:
        sys.exit(__doc__)
    net_dir = args[0]
    base = args[1] if len(args) > 1 else "default"
    td = args[2] if len(args) > 2 else "td8"
    with open(os.path.join(net_dir, "layers.csv")) as f:
        rows = list(csv.DictReader(f))
    by_cfg = {}
    for r in rows:
        by_cfg.setdefault(r["config"], []).append(r)
    pairs = list(zip(by_cfg[base], by_cfg[td]))
    for b, t in pairs:
        assert b["layer"] == t["layer"], (b["layer"], t["layer"])

    classes = {}
    for b, t in pairs:
        key = (shape_class(t), t["kernel"])
        c = classes.setdefault(key, {"n": 0, "macs": 0, "issued": 0, "skipped": 0, "base": 0,
                                     "td": 0, **{k: 0 for k, _, _ in CAUSES}})
        c["n"] += 1
        c["macs"] += int(t["macs"])
        c["issued"] += int(t["macs_issued"])
        c["skipped"] += int(t["td_macs_skipped"] or 0)
        c["base"] += int(b["total_cycles"])
        c["td"] += int(t["total_cycles"])
        for k, _, _ in CAUSES:
            c[k] += int(t[k])
    net = os.path.basename(os.path.normpath(net_dir))
    print(f"**{net}**, {td} against {base} (cycles by cause on {td}):\n")
    print("| layers | kernel on " + td + " | n | MACs | skipped | " +
          " | ".join(name for _, name, _ in CAUSES) + f" | {td} | {base} | speedup |")
    print("|---|---|---:|---:|---:|" + "---:|" * len(CAUSES) + "---:|---:|---:|")
    tot = {"base": 0, "td": 0}
    for (cls, kernel), c in sorted(classes.items(), key=lambda kv: -kv[1]["base"]):
        tot["base"] += c["base"]
        tot["td"] += c["td"]
        slots = c["issued"] + c["skipped"]  # the dense run's MAC slots
        skipped = f"{100 * c['skipped'] / slots:.0f}%" if slots else "-"
        print(f"| {cls} | `{kernel}` | {c['n']} | {fmt(c['macs'])} | {skipped} | " +
              " | ".join(fmt(c[k]) for k, _, _ in CAUSES) +
              f" | {fmt(c['td'])} | {fmt(c['base'])} | {c['base'] / c['td']:.2f}x |")
    print(f"| **all** | | {len(pairs)} | | | " + " | " * (len(CAUSES) - 1) +
          f" | **{fmt(tot['td'])}** | **{fmt(tot['base'])}** | "
          f"**{tot['base'] / tot['td']:.2f}x** |\n")

    if "--all" in sys.argv:
        layer_table(pairs, base, td)
    slow = [(b, t) for b, t in pairs if int(b["total_cycles"]) < 1.2 * int(t["total_cycles"])]
    print(f"Layers below 1.2x on {net} ({len(slow)} of {len(pairs)}), with the cause that "
          f"holds most of their cycles on {td}:\n")
    print(f"| layer | kind | {td} | {base} | speedup | bound (its share; counter) |")
    print("|---|---|---:|---:|---:|---|")
    for b, t in slow:
        total = int(t["total_cycles"])
        k, name, counter = max(CAUSES, key=lambda c: int(t[c[0]]))
        share = int(t[k]) / total if total else 0
        print(f"| {t['layer']} | {t['kind']} | {fmt(total)} | {fmt(b['total_cycles'])} | "
              f"{int(b['total_cycles']) / total:.2f}x | {name} {100 * share:.0f}% "
              f"(`{counter}`) |")
    print()


if __name__ == "__main__":
    main()
