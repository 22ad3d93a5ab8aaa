#!/usr/bin/python3
"""Checks make_models.py's numpy reference against torch: evaluates each float test model with
torch's own operators (torch.nn.functional, float64) from the ONNX graph and its initializers,
and compares the result with the stored MODEL.output.npy.

    /usr/bin/python3 testbenches/compiler/check_models_torch.py MODELS_DIR NAME...

Prints the largest absolute difference per model; exits 1 if any exceeds 1e-4, 2 on bad usage.
Pre-quantized models (QDQ, QOperator) are out of its reach: torch has no ONNX quantize op.
"""
import os
import sys

import numpy as np
import onnx
import torch
import torch.nn.functional as F
from onnx import helper, numpy_helper

TOLERANCE = 1e-4


def attrs(node):
    return {a.name: helper.get_attribute_value(a) for a in node.attribute}


def pads2d(p):
    """ONNX [top, left, bottom, right] to torch F.pad's [left, right, top, bottom]."""
    return [p[1], p[3], p[0], p[2]]


def conv(x, w, b, a):
    x = F.pad(x, pads2d(a.get("pads", [0] * 4)))
    return F.conv2d(x, w, b, stride=a.get("strides", [1, 1]), groups=a.get("group", 1),
                    dilation=a.get("dilations", [1, 1]))


def resize(i, a):
    """ONNX Resize as torch's interpolate: linear half_pixel is bilinear without corners,
    align_corners with them; nearest asymmetric floor is torch's nearest."""
    x = i[0]
    if len(i) > 3 and i[3] is not None and i[3].numel():
        size = [int(v) for v in i[3][2:]]
    else:
        size = [int(x.shape[2 + d] * float(i[2][2 + d])) for d in range(2)]
    mode = a.get("mode", b"nearest").decode()
    ctm = a.get("coordinate_transformation_mode", b"half_pixel").decode()
    if mode == "linear" and ctm in ("half_pixel", "pytorch_half_pixel", "align_corners"):
        return F.interpolate(x, size=size, mode="bilinear", align_corners=ctm == "align_corners")
    if mode == "nearest" and ctm == "asymmetric" and a.get("nearest_mode", b"") == b"floor":
        return F.interpolate(x, size=size, mode="nearest")
    raise ValueError(f"Resize {mode} {ctm} has no torch counterpart here")


def pad(x, p):
    """ONNX Pad (constant 0) of a 4-D tensor: p is [N, C, H, W begins, N, C, H, W ends]."""
    if any(p[d] for d in (0, 1, 4, 5)):
        raise ValueError("Pad of N or C")
    return F.pad(x, pads2d([p[2], p[3], p[6], p[7]]))


def squeeze(x, axes):
    for d in sorted(axes, reverse=True):  # torch 1.13 squeezes one axis at a time
        x = x.squeeze(d)
    return x


def pool(fn, x, a, **kw):
    p = a.get("pads", [0] * 4)
    if p[0] != p[2] or p[1] != p[3]:
        raise ValueError("asymmetric pooling pads")
    if a.get("ceil_mode", 0):
        kw["ceil_mode"] = True
    return fn(x, a["kernel_shape"], a["strides"], padding=p[:2], **kw)


def reduce_axes(a, i):
    return a["axes"] if "axes" in a else [int(v) for v in i[1]]


OPS = {
    "Conv": lambda i, a: conv(i[0], i[1], i[2] if len(i) > 2 else None, a),
    "Resize": resize,
    "ConvTranspose": lambda i, a: F.conv_transpose2d(
        i[0], i[1], i[2] if len(i) > 2 else None, stride=a.get("strides", [1, 1]),
        padding=a.get("pads", [0] * 4)[:2], output_padding=a.get("output_padding", [0, 0]),
        groups=a.get("group", 1), dilation=a.get("dilations", [1, 1])),
    "BatchNormalization": lambda i, a: F.batch_norm(i[0], i[3], i[4], i[1], i[2],
                                                    eps=a["epsilon"]),
    "Relu": lambda i, a: F.relu(i[0]),
    "Clip": lambda i, a: torch.clamp(i[0], float(i[1]) if len(i) > 1 else a["min"],
                                     float(i[2]) if len(i) > 2 else a["max"]),
    "Gemm": lambda i, a: F.linear(i[0], i[1] if a.get("transB") else i[1].T, i[2]),
    "MatMul": lambda i, a: torch.matmul(i[0], i[1]),
    "Add": lambda i, a: i[0] + i[1],
    "Mul": lambda i, a: i[0] * i[1],
    "MaxPool": lambda i, a: pool(F.max_pool2d, i[0], a),
    "AveragePool": lambda i, a: pool(F.avg_pool2d, i[0], a,
                                     count_include_pad=bool(a.get("count_include_pad", 0))),
    "GlobalAveragePool": lambda i, a: F.adaptive_avg_pool2d(i[0], 1),
    "Flatten": lambda i, a: torch.flatten(i[0], a.get("axis", 1)),
    "Reshape": lambda i, a: i[0].reshape([int(v) for v in i[1]]),
    "Squeeze": lambda i, a: squeeze(i[0], [int(v) for v in i[1]]),
    "Concat": lambda i, a: torch.cat(i, a["axis"]),
    "Shape": lambda i, a: torch.tensor(i[0].shape, dtype=torch.int64),
    "Slice": lambda i, a: slice_(i),
    "Pad": lambda i, a: pad(i[0], [int(v) for v in i[1]]),
    "Identity": lambda i, a: i[0],
    "Dropout": lambda i, a: i[0],
    "Softmax": lambda i, a: torch.softmax(i[0], a.get("axis", -1)),
    "Sigmoid": lambda i, a: torch.sigmoid(i[0]),
    "Tanh": lambda i, a: torch.tanh(i[0]),
    "HardSwish": lambda i, a: F.hardswish(i[0]),
    "LeakyRelu": lambda i, a: F.leaky_relu(i[0], a.get("alpha", 0.01)),
    "ReduceMean": lambda i, a: torch.mean(i[0], reduce_axes(a, i),
                                          keepdim=bool(a.get("keepdims", 1))),
    "ReduceSum": lambda i, a: torch.sum(i[0], reduce_axes(a, i), keepdim=bool(a.get("keepdims", 1))),
    "Transpose": lambda i, a: i[0].permute(a["perm"]),
    "Sub": lambda i, a: i[0] - i[1],
    "Div": lambda i, a: i[0] / i[1],
    "Pow": lambda i, a: torch.pow(i[0], i[1]),
    "Sqrt": lambda i, a: torch.sqrt(i[0]),
    "Erf": lambda i, a: torch.erf(i[0]),
    "Split": lambda i, a: torch.split(i[0], [int(v) for v in i[1]], a.get("axis", 0)),
}


def hard_sigmoid(i, a):
    # torch's hardsigmoid is ONNX's with alpha 1/6, beta 0.5 (MobileNetV3's); others differ.
    if not np.isclose(a.get("alpha", 0.2), 1 / 6) or a.get("beta", 0.5) != 0.5:
        raise ValueError("HardSigmoid with alpha != 1/6 or beta != 0.5")
    return F.hardsigmoid(i[0])


OPS["HardSigmoid"] = hard_sigmoid


def slice_(i):
    """ONNX Slice with steps 1: torch.narrow per axis."""
    y = i[0]
    axes = [int(v) for v in i[3]] if len(i) > 3 else list(range(len(i[1])))
    for a, b, e in zip(axes, i[1], i[2]):
        y = torch.narrow(y, a, int(b), int(e) - int(b))
    return y


def run_torch(model, x):
    env = {"input": torch.from_numpy(x.astype(np.float64))}
    for init in model.graph.initializer:
        a = numpy_helper.to_array(init)
        env[init.name] = torch.from_numpy(a.astype(np.float64 if a.dtype.kind == "f" else a.dtype))
    for node in model.graph.node:
        if node.op_type not in OPS:
            raise ValueError("no torch version of " + node.op_type)
        y = OPS[node.op_type]([env[n] for n in node.input], attrs(node))
        for name, value in zip(node.output, y if node.op_type == "Split" else [y]):
            env[name] = value
    return env[model.graph.output[0].name].numpy()


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    failed = False
    for name in sys.argv[2:]:
        base = os.path.join(sys.argv[1], name)
        try:
            y = run_torch(onnx.load(base + ".onnx"), np.load(base + ".input.npy"))
            diff = float(np.max(np.abs(y - np.load(base + ".output.npy"))))
        except (OSError, ValueError) as e:
            print(f"check_models_torch.py: {name}: {e}", file=sys.stderr)
            sys.exit(2)
        failed |= not diff <= TOLERANCE
        print(f"{name}: max |torch - numpy| = {diff:.3g}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
