#!/usr/bin/env python3
"""Pareto plots of a `brickyard sweep` (docs/evaluation.md, "Sweeps").

Usage: sweep_plots.py RESULTS.json OUT_DIR

Writes OUT_DIR/pareto_cycles_area.png and pareto_energy_area.png (when the sweep has areas)
and pareto_cycles_energy.png: every point that ran, one panel per model, the Pareto front
(both axes minimised; brickyard sweep marks it in the rows, this script only draws) as a
line through the front's points, each point labelled with its id. Old plots that do not
apply (no area) are removed so that the folder matches the results.
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PLOTS = [
    ("pareto_cycles_area", "area_transistors", "cycles", "area (M transistors)", "cycles",
     1e-6, 1.0),
    ("pareto_energy_area", "area_transistors", "energy_pj", "area (M transistors)",
     "energy per run (uJ)", 1e-6, 1e-6),
    ("pareto_cycles_energy", "energy_pj", "cycles", "energy per run (uJ)", "cycles", 1e-6, 1.0),
]


def short_label(values, keys):
    """The point's swept values, compact: 'mesh_rows=8 enabled=true' (last key part)."""
    return " ".join(f"{k.split('.')[-1]}={values.get(k)}" for k in keys)


def main(results_path, out):
    results = json.load(open(results_path))
    rows = results["rows"]
    models = list(dict.fromkeys(r["model"] for r in rows))
    keys = results.get("keys", [])
    values = {p["id"]: p.get("values", {}) for p in results.get("points", [])}
    written = []
    for flag, xk, yk, xlabel, ylabel, xs, ys in PLOTS:
        path = os.path.join(out, flag + ".png")
        have = [r for r in rows
                if r["status"] == "ok" and r.get(xk) is not None and r.get(yk) is not None]
        if not have:
            if os.path.exists(path):
                os.remove(path)
            continue
        # The key to the ids goes on the right of the panels (the table has it too).
        legend = [f"{r['id']}: {short_label(values.get(r['id'], {}), keys)}"
                  for r in have if r["model"] == models[0]]
        show_key = 0 < len(legend) <= 40
        key_width = min(6.0, 0.6 + 0.055 * max((len(l) for l in legend), default=0))
        width = 5.5 * len(models) + (key_width if show_key else 0)
        fig, axes = plt.subplots(1, len(models), figsize=(width, max(4.2, 0.16 * len(legend))),
                                 squeeze=False)
        for ax, model in zip(axes[0], models):
            pts = [r for r in have if r["model"] == model]
            front = sorted((r for r in pts if r.get(flag)), key=lambda r: r[xk])
            rest = [r for r in pts if not r.get(flag)]
            ax.scatter([r[xk] * xs for r in rest], [r[yk] * ys for r in rest], c="#999999",
                       s=24, label="dominated")
            ax.scatter([r[xk] * xs for r in front], [r[yk] * ys for r in front], c="#d62728",
                       s=40, label="Pareto front", zorder=3)
            if front:
                ax.step([r[xk] * xs for r in front], [r[yk] * ys for r in front], where="post",
                        c="#d62728", lw=1, zorder=2)
            for r in pts:
                ax.annotate(r["id"], (r[xk] * xs, r[yk] * ys), fontsize=7,
                            xytext=(3, 3), textcoords="offset points")
            ax.set_xlabel(xlabel)
            ax.set_ylabel(ylabel)
            ax.set_title(f"{results.get('name', '')}: {model}", fontsize=10)
            ax.grid(True, alpha=0.3)
            ax.legend(fontsize=7)
        if show_key:
            split = 1 - key_width / width
            fig.text(split + 0.01, 0.5, "\n".join(legend), fontsize=7, family="monospace",
                     va="center")
            fig.tight_layout(rect=(0, 0, split, 1))
        else:
            fig.tight_layout()
        fig.savefig(path, dpi=90)
        plt.close(fig)
        written.append(os.path.basename(path))
    print("sweep plots: " + (", ".join(written) if written else "none (no point ran)"))


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
