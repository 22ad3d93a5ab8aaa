#!/usr/bin/python3
"""Prints the Markdown tables of bench/eval/run.sh from its reports.

    /usr/bin/python3 bench/eval/summarize.py OUT_DIR NET...

One table over all nets (a row per net and config: cycles, utilization, where the cycles go,
DRAM traffic, energy, area and the derived figures) and, per net, the layers where the
configs differ most. Reads OUT_DIR/<net>/report.json (brickyard eval's report).
"""
import json
import os
import sys


def mib(b):
    return f"{b / (1 << 20):.1f}"


def pct(x):
    return f"{100 * x:.1f}%"


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    out, nets = sys.argv[1], sys.argv[2:]
    reports = {}
    for net in nets:
        path = os.path.join(out, net, "report.json")
        if os.path.exists(path):
            with open(path) as f:
                reports[net] = json.load(f)
        else:
            print(f"{net}: no report ({path})", file=sys.stderr)

    print("| network | config | status | cycles | utilization | compute / DMA / dependency / host / other"
          " | DRAM read+write MiB | energy per inference (mJ) | area (M transistors) "
          "| inferences/s | inferences/J | speedup | energy ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for net, rep in reports.items():
        for c in rep["configs"]:
            if "totals" not in c:
                print(f"| {net} | {c['name']} | {c.get('status')} | | | | | | | | | | |")
                continue
            t, d = c["totals"], c["derived"]
            cyc = t["total_cycles"]
            parts = " / ".join(pct(t[k] / cyc) if cyc else "-" for k in (
                "compute_cycles", "stall_dma_cycles", "stall_dependency_cycles",
                "stall_host_cycles", "stall_other_cycles"))
            area = c.get("area") or {}
            mtr = f"{area['transistors'] / 1e6:.2f}" if area.get("transistors") else "-"
            print(f"| {net} | {c['name']} | {c['status']} | {cyc / 1e6:.2f} M | "
                  f"{pct(t['utilization'])} | {parts} | "
                  f"{mib(t['dram_read_bytes'] + t['dram_write_bytes'])} | "
                  f"{d['energy_per_inference_uj'] / 1e3:.2f} | {mtr} | "
                  f"{d['inferences_per_s']:.1f} | {d['inferences_per_joule']:.1f} | "
                  f"{d['speedup_vs_first']:.2f}x | {d['energy_ratio_vs_first']:.2f} |")

    print()
    print("| network | config | MACs skipped (TensorDash) | Boveda: DRAM bytes saved "
          "| DRAM MiB without compression |")
    print("|---|---|---|---|---|")
    for net, rep in reports.items():
        for c in rep["configs"]:
            t = c.get("totals")
            if not t or not (c.get("tensordash") or c.get("boveda")):
                continue
            # Of the dense run's MAC slots (issued + skipped): with padded or diagonal blocks
            # (depthwise loops) they exceed the layer's MACs.
            slots = t["macs_issued"] + t["td_macs_skipped"]
            skipped = (f"{t['td_macs_skipped'] / 1e6:.0f} M of {slots / 1e6:.0f} M slots "
                       f"({pct(t['td_macs_skipped'] / slots)})"
                       if c.get("tensordash") and slots else "-")
            saved = ("-" if t.get("boveda_bytes_saved") is None else
                     f"{mib(t['boveda_bytes_saved'])} MiB")
            raw = ("-" if t.get("dram_bytes_uncompressed") is None else
                   mib(t["dram_bytes_uncompressed"]))
            print(f"| {net} | {c['name']} | {skipped} | {saved} | {raw} |")


if __name__ == "__main__":
    main()
