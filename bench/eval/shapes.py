#!/usr/bin/env python3
"""Utilization per distinct conv / FC shape of a network run by `brickyard eval` (issue 16's
ResNet-50 table): reads the ONNX model (shapes by ONNX shape inference) and the report's
layers.csv, groups the accelerator layers by shape (kernel, stride, input HxW, in and out
channels, depthwise), and prints a markdown table: layers of the shape, MACs, cycles,
utilization (MACs / (cycles x DIM^2)), the largest stall cause with its share, and the
MAC-weighted total. Each layer runs as its own kernel call (the report's cycles are the
layer's own), so a shape's figure is that of the layer alone.

Usage: shapes.py MODEL.onnx LAYERS.csv [--before OLD_LAYERS.csv] [--config default] [--dim 16]
                 [--causes]
(--before adds the utilization of the same shapes in an earlier run as a column; --causes
replaces the largest stall by the shape's cycles by cause: a beat entering the array, waiting
for the DMA, for a hazard, for the host, other, in % of its cycles; docs/evaluation.md.)
"""
import argparse
import csv
from collections import OrderedDict

import onnx
from onnx import shape_inference


def dims(value_info):
    return [d.dim_value for d in value_info.type.tensor_type.shape.dim]


def node_shapes(model):
    model = shape_inference.infer_shapes(model)
    g = model.graph
    known = {v.name: dims(v) for v in list(g.value_info) + list(g.input) + list(g.output)}
    inits = {i.name: list(i.dims) for i in g.initializer}
    out = {}
    for n in g.node:
        if n.op_type not in ("Conv", "Gemm", "MatMul"):
            continue
        x = known.get(n.input[0])
        w = inits.get(n.input[1]) or known.get(n.input[1])
        attrs = {a.name: onnx.helper.get_attribute_value(a) for a in n.attribute}
        if n.op_type == "Conv":
            group = attrs.get("group", 1)
            k = w[2:] if w else [0, 0]
            s = attrs.get("strides", [1, 1])
            key = ("conv %dx%d/%d" % (k[0], k[1], s[0]), "%dx%d" % (x[2], x[3]), x[1], w[0],
                   "dw" if group > 1 and group == x[1] else "")
        else:
            key = ("fc", "1x1", x[-1], (w[0] if attrs.get("transB", 0) else w[-1]), "")
        out[n.name] = key
    return out


CAUSES = ("stall_dma_cycles", "stall_dependency_cycles", "stall_host_cycles",
          "stall_other_cycles")
NAMES = {"stall_dma_cycles": "DMA", "stall_dependency_cycles": "hazard",
         "stall_host_cycles": "host", "stall_other_cycles": "other"}


def group(path, shapes, config):
    groups = OrderedDict()
    with open(path) as f:
        for r in csv.DictReader(f):
            if r["config"] != config or r["layer"] not in shapes or r["on_cpu"] == "1":
                continue
            g = groups.setdefault(shapes[r["layer"]], {"n": 0, "macs": 0, "cycles": 0,
                                                        "kernel": r["kernel"],
                                                        **{c: 0 for c in CAUSES}})
            g["n"] += 1
            g["macs"] += int(r["macs"])
            g["cycles"] += int(r["total_cycles"])
            g["compute"] = g.get("compute", 0) + int(r["compute_cycles"])
            for c in CAUSES:
                g[c] += int(r[c])
    return groups


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("model")
    ap.add_argument("layers")
    ap.add_argument("--before")
    ap.add_argument("--config", default="default")
    ap.add_argument("--dim", type=int, default=16)
    ap.add_argument("--causes", action="store_true")
    a = ap.parse_args()
    shapes = node_shapes(onnx.load(a.model))
    groups = group(a.layers, shapes, a.config)
    before = group(a.before, shapes, a.config) if a.before else {}
    peak = a.dim * a.dim

    def util(g):
        return 100.0 * g["macs"] / (g["cycles"] * peak)

    print("| shape (kernel/stride) | input | in ch | out ch | layers | kernel | MACs | cycles | "
          + ("before | " if before else "") + "**utilization** | "
          + ("compute / DMA / hazard / host / other |" if a.causes else "largest stall |"))
    print("|---|---|---|---|---|---|---|---|" + ("---|" if before else "") + "---|---|")
    tm = tc = bm = bc = 0
    for key, g in groups.items():
        kind, hw, cin, cout, dw = key
        worst = max(CAUSES, key=lambda c: g[c])
        old = ("%.1f%% | " % util(before[key])) if key in before else ("| " if before else "")
        share = lambda n: 100.0 * n / g["cycles"]
        last = (" / ".join("%.0f%%" % share(g[c]) for c in ("compute",) + CAUSES) if a.causes
                else "%s %.0f%%" % (NAMES[worst], share(g[worst])))
        print("| %s%s | %s | %d | %d | %d | `%s` | %d | %d | %s**%.1f%%** | %s |" % (
            kind, " depthwise" if dw else "", hw, cin, cout, g["n"], g["kernel"], g["macs"],
            g["cycles"], old, util(g), last))
        tm += g["macs"]
        tc += g["cycles"]
    for g in before.values():
        bm += g["macs"]
        bc += g["cycles"]
    print("| **all conv/FC layers (MAC-weighted)** | | | | %d | | %d | %d | %s**%.1f%%** | |" % (
        sum(g["n"] for g in groups.values()), tm, tc,
        ("%.1f%% | " % (100.0 * bm / (bc * peak))) if before else "", 100.0 * tm / (tc * peak)))


if __name__ == "__main__":
    main()
