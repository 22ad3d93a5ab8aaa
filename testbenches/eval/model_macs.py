#!/usr/bin/env python3
"""MACs of every Conv, Gemm and MatMul node of an ONNX model, from its shapes alone (ONNX
shape inference): the reference `brickyard eval`'s MAC counts are checked against.

Usage: model_macs.py MODEL.onnx   prints "NODE_NAME MACS" per node.
"""
import sys

import onnx
from onnx import shape_inference


def main(path):
    m = shape_inference.infer_shapes(onnx.load(path))
    g = m.graph
    shapes = {}
    for v in list(g.input) + list(g.value_info) + list(g.output):
        shapes[v.name] = [d.dim_value for d in v.type.tensor_type.shape.dim]
    for t in g.initializer:
        shapes[t.name] = list(t.dims)
    for n in g.node:
        if n.op_type == "Conv":
            out = shapes[n.output[0]]  # N, M, H, W
            w = shapes[n.input[1]]  # M, C/group, kh, kw
            macs = out[0] * out[1] * out[2] * out[3] * w[1] * w[2] * w[3]
        elif n.op_type in ("Gemm", "MatMul"):
            a, out = shapes[n.input[0]], shapes[n.output[0]]
            trans_a = any(x.name == "transA" and x.i for x in n.attribute)
            k = a[-2] if trans_a else a[-1]
            macs = k
            for d in out:
                macs *= d
        else:
            continue
        print(n.name, macs)


if __name__ == "__main__":
    main(sys.argv[1])
