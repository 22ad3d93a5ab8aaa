#!/usr/bin/python3
"""Writes the compiler's test models (ONNX, float, random weights) and one input per model.

Deterministic (numpy's default_rng with fixed seeds), built with python3-onnx's helper API
only (no torch), small enough for configs/tiny.yaml. Together they cover every op the
compiler imports (docs/compiler.md): Conv (dense, depthwise, strided, padded, non-square
kernels and images), Gemm (transB) / MatMul + Add bias, Relu, Clip (Relu6, opset 11 inputs and
opset 6 attributes), BatchNormalization, Add (residual), MaxPool, AveragePool,
GlobalAveragePool, Flatten, Reshape, Squeeze, Concat, Pad, Identity, Dropout and Softmax; and
those the compiler is gaining for issue 29 (zoo_ops): grouped Conv (channel multipliers too),
Sigmoid, HardSigmoid, HardSwish, Tanh, LeakyRelu, SiLU (Mul(x, Sigmoid(x))), broadcast Mul
(squeeze-and-excitation), ReduceMean, Transpose with 5-D Reshape (channel shuffle) and Split;
and ConvNeXt's (convnext_block): channels-last Transposes, MatMul on them, torch's layer
normalization and exact GELU chains (Sub, Pow, Sqrt, Div, Erf).

    /usr/bin/python3 testbenches/compiler/make_models.py OUT_DIR

writes OUT_DIR/<name>.onnx, OUT_DIR/<name>.input.npy (float32, the model's input shape) and
OUT_DIR/<name>.output.npy: the float output for that input, computed here by a small numpy
interpreter (NCHW, written from the ONNX operator specs), the independent reference that the
compiler's float interpreter is tested against. check_models_torch.py checks that reference
against torch's operators for the float models.
"""
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class Builder:
    """A graph under construction: weights with He-scaled random values, unique names."""

    def __init__(self, name, seed):
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.nodes = []
        self.inits = []
        self.count = 0

    def fresh(self, base):
        self.count += 1
        return f"{base}_{self.count}"

    def const(self, base, array):
        name = self.fresh(base)
        self.inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def node(self, op, inputs, base=None, n_out=1, **attrs):
        outs = [self.fresh(base or op.lower()) for _ in range(n_out)]
        self.nodes.append(helper.make_node(op, inputs, outs, name=self.fresh(op), **attrs))
        return outs[0] if n_out == 1 else outs

    def conv(self, x, cin, cout, k, stride=1, pads=None, group=1, bias=True, dilation=1):
        kh, kw = (k, k) if isinstance(k, int) else k
        fan_in = cin // group * kh * kw
        w = self.rng.normal(0, np.sqrt(2.0 / fan_in), (cout, cin // group, kh, kw))
        inputs = [x, self.const("w", w.astype(np.float32))]
        if bias:
            inputs.append(self.const("b", self.rng.normal(0, 0.1, cout).astype(np.float32)))
        sh, sw = (stride, stride) if isinstance(stride, int) else stride
        if pads is None:
            pads = [kh // 2, kw // 2, kh // 2, kw // 2]
        dh, dw = (dilation, dilation) if isinstance(dilation, int) else dilation
        extra = {"dilations": [dh, dw]} if (dh, dw) != (1, 1) else {}
        return self.node("Conv", inputs, "conv", kernel_shape=[kh, kw], strides=[sh, sw],
                         pads=pads, group=group, **extra)

    def bn(self, x, c):
        r = self.rng
        params = [r.uniform(0.5, 1.5, c), r.normal(0, 0.1, c), r.normal(0, 0.2, c),
                  r.uniform(0.5, 2.0, c)]  # gamma, beta, mean, var
        names = [self.const(n, p.astype(np.float32))
                 for n, p in zip(["gamma", "beta", "mean", "var"], params)]
        return self.node("BatchNormalization", [x] + names, "bn", epsilon=1e-5)

    def relu6(self, x, opset):
        if opset >= 11:
            lo = self.const("lo", np.array(0.0, np.float32))
            hi = self.const("hi", np.array(6.0, np.float32))
            return self.node("Clip", [x, lo, hi], "relu6")
        return self.node("Clip", [x], "relu6", min=0.0, max=6.0)

    def gemm(self, x, k, n, trans_b=True):
        w = self.rng.normal(0, np.sqrt(2.0 / k), (n, k) if trans_b else (k, n))
        b = self.rng.normal(0, 0.1, n)
        return self.node("Gemm", [x, self.const("w", w.astype(np.float32)),
                                  self.const("b", b.astype(np.float32))], "fc",
                         transB=1 if trans_b else 0)

    def model(self, x_shape, out, out_shape, opset, domains=()):
        graph = helper.make_graph(
            self.nodes, self.name,
            [helper.make_tensor_value_info("input", TensorProto.FLOAT, x_shape)],
            [helper.make_tensor_value_info(out, TensorProto.FLOAT, out_shape)],
            self.inits)
        imports = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, 1) for d in domains]
        model = helper.make_model(graph, opset_imports=imports,
                                  producer_name="brickyard make_models.py")
        model.ir_version = 7 if opset < 15 else 8
        onnx.checker.check_model(model, full_check=True)
        return model


def mlp():
    """Gemm (transB) + Relu, Gemm without transB, MatMul + Add (bias) + Softmax-free logits."""
    b = Builder("mlp", 1)
    h = b.node("Relu", [b.gemm("input", 64, 48)])
    h = b.node("Relu", [b.gemm(h, 48, 32, trans_b=False)])
    w = b.const("w", b.rng.normal(0, np.sqrt(2 / 32), (32, 10)).astype(np.float32))
    h = b.node("MatMul", [h, w])
    out = b.node("Add", [h, b.const("b", b.rng.normal(0, 0.1, 10).astype(np.float32))])
    return b.model([1, 64], out, [1, 10], 13), [1, 64]


def lenet():
    """Conv 5x5 (padded, then not) + Relu + MaxPool, Flatten of a 16x2x2 map, Gemm, Softmax."""
    b = Builder("lenet", 2)
    h = b.node("Relu", [b.conv("input", 1, 6, 5)])
    h = b.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])
    h = b.node("Relu", [b.conv(h, 6, 16, 5, pads=[0, 0, 0, 0])])
    h = b.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])
    h = b.node("Flatten", [h], axis=1)
    h = b.node("Relu", [b.gemm(h, 64, 32)])
    h = b.gemm(h, 32, 10)
    out = b.node("Softmax", [h], axis=1)
    return b.model([1, 1, 16, 16], out, [1, 10], 13), [1, 1, 16, 16]


def resnet_block():
    """A ResNet basic block with a strided 1x1 downsample (BN folded, residual Add, Relu),
    global average pooling and a classifier; opset 11."""
    b = Builder("resnet_block", 3)
    stem = b.node("Relu", [b.bn(b.conv("input", 8, 16, 3, bias=False), 16)])
    h = b.node("Relu", [b.bn(b.conv(stem, 16, 32, 3, stride=2, bias=False), 32)])
    h = b.bn(b.conv(h, 32, 32, 3, bias=False), 32)
    short = b.bn(b.conv(stem, 16, 32, 1, stride=2, pads=[0, 0, 0, 0], bias=False), 32)
    h = b.node("Relu", [b.node("Add", [h, short])])
    # A second block with an identity shortcut.
    y = b.node("Relu", [b.bn(b.conv(h, 32, 32, 3, bias=False), 32)])
    y = b.bn(b.conv(y, 32, 32, 3, bias=False), 32)
    h = b.node("Relu", [b.node("Add", [y, h])])
    h = b.node("GlobalAveragePool", [h])
    h = b.node("Flatten", [h])
    out = b.gemm(h, 32, 10)
    return b.model([1, 8, 10, 10], out, [1, 10], 11), [1, 8, 10, 10]


def mbv2_block():
    """MobileNetV2 inverted residuals: 1x1 expand + Relu6, depthwise 3x3 + Relu6 (stride 1 and
    2), 1x1 project, residual Add; a non-square image and a 1x3 kernel; opset 12."""
    b = Builder("mbv2_block", 4)
    x = b.node("Relu", [b.bn(b.conv("input", 3, 8, 3, stride=2, bias=False), 8)])

    def inverted(x, cin, cout, stride, t, opset_clip):
        e = cin * t
        h = b.relu6(b.bn(b.conv(x, cin, e, 1, pads=[0, 0, 0, 0], bias=False), e), opset_clip)
        h = b.relu6(b.bn(b.conv(h, e, e, 3, stride=stride, group=e, bias=False), e), opset_clip)
        h = b.bn(b.conv(h, e, cout, 1, pads=[0, 0, 0, 0], bias=False), cout)
        return b.node("Add", [x, h]) if stride == 1 and cin == cout else h

    x = inverted(x, 8, 8, 1, 6, 12)
    x = inverted(x, 8, 16, 2, 4, 12)
    x = b.node("Relu", [b.conv(x, 16, 16, (1, 3), pads=[0, 1, 0, 1])])
    x = b.node("GlobalAveragePool", [x])
    x = b.node("Reshape", [x, b.const("shape", np.array([1, 16], np.int64))])
    out = b.gemm(x, 16, 6)
    return b.model([1, 3, 12, 16], out, [1, 6], 12), [1, 3, 12, 16]


def pool_concat():
    """Max / average / global pooling (average pooling that counts the padding, that does not,
    and in ceil mode), a channel Concat of four branches, Pad into a conv with
    unequal strides, Identity, Dropout and Squeeze; a non-square image; opset 13."""
    b = Builder("pool_concat", 5)
    y = b.node("Relu", [b.conv("input", 4, 8, 3)])
    y = b.node("Identity", [y])
    a = b.node("Relu", [b.conv(y, 8, 8, 1, pads=[0, 0, 0, 0])])
    m = b.node("MaxPool", [y], kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1])
    v = b.node("AveragePool", [y], kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1],
               count_include_pad=1)
    # Padding not counted (TensorFlow's SAME average pooling): the divisor varies at the borders.
    e = b.node("AveragePool", [y], kernel_shape=[3, 3], strides=[1, 1], pads=[1, 1, 1, 1])
    h = b.node("Concat", [a, m, v, e], axis=1)
    h = b.node("Relu", [b.conv(h, 32, 16, 1, pads=[0, 0, 0, 0])])
    h = b.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])
    # 6 x 5 -> 4 x 3: ceil mode adds a window that ends past the padding (counted neither).
    h = b.node("AveragePool", [h], kernel_shape=[3, 3], strides=[2, 2], pads=[1, 1, 1, 1],
               ceil_mode=1)
    pads = b.const("pads", np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64))
    h = b.node("Pad", [h, pads], mode="constant")
    h = b.node("Relu", [b.conv(h, 16, 8, 3, stride=(2, 1), pads=[0, 0, 0, 0])])
    h = b.node("Dropout", [h])
    h = b.node("GlobalAveragePool", [h])
    h = b.node("Squeeze", [h, b.const("axes", np.array([2, 3], np.int64))])
    out = b.gemm(h, 8, 5)
    return b.model([1, 4, 12, 10], out, [1, 5], 13), [1, 4, 12, 10]


def run_numpy(model, x):
    """Evaluates `model` on input x with numpy, node by node (the ops MODELS use)."""
    env = {"input": x.astype(np.float64)}
    for init in model.graph.initializer:
        a = numpy_helper.to_array(init)
        # Zero points keep their dtype (it selects the quantized range); the rest computes
        # in float64.
        env[init.name] = a if a.dtype == np.uint8 else a.astype(np.float64)

    def quantize(x, scale, zp):
        z = 0 if zp is None else zp
        lo, hi = (0, 255) if zp is not None and zp.dtype == np.uint8 else (-128, 127)
        return np.clip(np.round(x / scale) + z, lo, hi)  # round half to even

    def dequantize(q, scale, zp):
        return (q - (0 if zp is None else zp)) * scale

    def attr(node, name, default=None):
        for a in node.attribute:
            if a.name == name:
                return helper.get_attribute_value(a)
        return default

    def conv(x, w, b, strides, pads, group, dilations=(1, 1)):
        if tuple(dilations) != (1, 1):  # the kernel of the whole span, zeros between the taps
            dil = np.zeros(w.shape[:2] + ((w.shape[2] - 1) * dilations[0] + 1,
                                          (w.shape[3] - 1) * dilations[1] + 1))
            dil[:, :, ::dilations[0], ::dilations[1]] = w
            w = dil
        n, c, h, wd = x.shape
        co, ci, kh, kw = w.shape
        x = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])))
        oh = (x.shape[2] - kh) // strides[0] + 1
        ow = (x.shape[3] - kw) // strides[1] + 1
        y = np.zeros((n, co, oh, ow))
        cpg, opg = c // group, co // group
        for g in range(group):
            xs = x[:, g * cpg:(g + 1) * cpg]
            ws = w[g * opg:(g + 1) * opg]
            for i in range(kh):
                for j in range(kw):
                    patch = xs[:, :, i:i + strides[0] * oh:strides[0], j:j + strides[1] * ow:strides[1]]
                    y[:, g * opg:(g + 1) * opg] += np.einsum("nchw,oc->nohw", patch, ws[:, :, i, j])
        return y + (b.reshape(1, -1, 1, 1) if b is not None else 0)

    def conv_transpose(x, w, b, a):
        """ONNX ConvTranspose by its definition: every input pixel scatters its kernel."""
        s, d = a.get("strides", [1, 1]), a.get("dilations", [1, 1])
        p, op, g = a.get("pads", [0] * 4), a.get("output_padding", [0, 0]), a.get("group", 1)
        n, c, h, wd = x.shape
        cg, mg, kh, kw = c // g, w.shape[1], w.shape[2], w.shape[3]
        full = np.zeros((n, mg * g, (h - 1) * s[0] + d[0] * (kh - 1) + 1 + op[0],
                         (wd - 1) * s[1] + d[1] * (kw - 1) + 1 + op[1]))
        for gr in range(g):
            for i in range(kh):
                for j in range(kw):
                    contrib = np.einsum("nchw,cm->nmhw", x[:, gr * cg:(gr + 1) * cg],
                                        w[gr * cg:(gr + 1) * cg, :, i, j])
                    full[:, gr * mg:(gr + 1) * mg, i * d[0]:i * d[0] + (h - 1) * s[0] + 1:s[0],
                         j * d[1]:j * d[1] + (wd - 1) * s[1] + 1:s[1]] += contrib
        y = full[:, :, p[0]:full.shape[2] - p[2], p[1]:full.shape[3] - p[3]]
        return y + (b.reshape(1, -1, 1, 1) if b is not None else 0)

    def resize(node, i):
        """ONNX Resize of H and W: nearest or linear, the coordinate transformations the test
        models use."""
        x = i[0]
        if len(i) > 3 and i[3] is not None and i[3].size:
            out = [int(v) for v in i[3][2:]]
            scales = [out[d] / x.shape[2 + d] for d in range(2)]
        else:
            scales = [float(v) for v in i[2][2:]]
            out = [int(np.floor(x.shape[2 + d] * scales[d])) for d in range(2)]
        mode = attr(node, "mode", b"nearest").decode()
        ctm = attr(node, "coordinate_transformation_mode", b"half_pixel").decode()
        nearest = attr(node, "nearest_mode", b"round_prefer_floor").decode()
        y = x
        for d in range(2):
            n_in, n_out = x.shape[2 + d], out[d]
            o = np.arange(n_out, dtype=np.float64)
            if ctm == "align_corners":
                src = o * (n_in - 1) / (n_out - 1) if n_out > 1 else o * 0
            elif ctm == "asymmetric":
                src = o / scales[d]
            else:
                src = (o + 0.5) / scales[d] - 0.5
            if mode == "linear":
                src = np.clip(src, 0, n_in - 1)
                i0 = np.floor(src).astype(int)
                i1 = np.minimum(i0 + 1, n_in - 1)
                lam = (src - i0).reshape([-1 if k == 2 + d else 1 for k in range(4)])
                y = np.take(y, i0, axis=2 + d) * (1 - lam) + np.take(y, i1, axis=2 + d) * lam
            else:
                idx = {"floor": np.floor(src), "ceil": np.ceil(src)}.get(
                    nearest, np.where(src - np.floor(src) == 0.5, np.floor(src), np.round(src)))
                y = np.take(y, np.clip(idx, 0, n_in - 1).astype(int), axis=2 + d)
        return y

    def ceil_pads(node, x, k, st):
        """The pads, the bottom and right ones grown by ceil mode: the output size rounds up, and
        the last window must start inside the input or its leading pad."""
        pads = list(attr(node, "pads", [0] * 4))
        if attr(node, "ceil_mode", 0):
            for d in range(2):
                size = x.shape[2 + d] + pads[d] + pads[d + 2]
                o = -(-(size - k[d]) // st[d]) + 1
                if (o - 1) * st[d] >= x.shape[2 + d] + pads[d]:
                    o -= 1
                pads[d + 2] += max(0, (o - 1) * st[d] + k[d] - size)
        return pads

    def pool(x, k, s, pads, fn, pad_value):
        x = np.pad(x, ((0, 0), (0, 0), (pads[0], pads[2]), (pads[1], pads[3])),
                   constant_values=pad_value)
        oh = (x.shape[2] - k[0]) // s[0] + 1
        ow = (x.shape[3] - k[1]) // s[1] + 1
        win = [x[:, :, i:i + s[0] * oh:s[0], j:j + s[1] * ow:s[1]]
               for i in range(k[0]) for j in range(k[1])]
        return fn(np.stack(win), axis=0)

    for node in model.graph.node:
        i = [env[n] if n else None for n in node.input]
        op = node.op_type
        if op == "Conv":
            y = conv(i[0], i[1], i[2] if len(i) > 2 else None, attr(node, "strides"),
                     attr(node, "pads"), attr(node, "group", 1), attr(node, "dilations", [1, 1]))
        elif op == "Resize":
            y = resize(node, i)
        elif op == "ConvTranspose":
            y = conv_transpose(i[0], i[1], i[2] if len(i) > 2 else None,
                               {a.name: helper.get_attribute_value(a) for a in node.attribute})
        elif op == "BatchNormalization":
            x, g, be, m, v = i
            sh = (1, -1, 1, 1)
            y = (x - m.reshape(sh)) / np.sqrt(v.reshape(sh) + attr(node, "epsilon")) * \
                g.reshape(sh) + be.reshape(sh)
        elif op == "Relu":
            y = np.maximum(i[0], 0)
        elif op == "Clip":
            lo = i[1] if len(i) > 1 else attr(node, "min")
            hi = i[2] if len(i) > 2 else attr(node, "max")
            y = np.clip(i[0], lo, hi)
        elif op == "Gemm":
            w = i[1].T if attr(node, "transB", 0) else i[1]
            y = i[0] @ w + i[2]
        elif op == "MatMul":
            y = i[0] @ i[1]
        elif op == "Add":
            y = i[0] + i[1]
        elif op == "MaxPool":
            k, st = attr(node, "kernel_shape"), attr(node, "strides")
            pads = ceil_pads(node, i[0], k, st)
            y = pool(i[0], k, st, pads, np.max, -np.inf)
        elif op == "AveragePool":
            k, st = attr(node, "kernel_shape"), attr(node, "strides")
            pads = ceil_pads(node, i[0], k, st)
            y = pool(i[0], k, st, pads, np.sum, 0)
            if attr(node, "count_include_pad", 0) and not attr(node, "ceil_mode", 0):
                y = y / (k[0] * k[1])
            else:  # the image pixels in each window
                assert not attr(node, "count_include_pad", 0), "not used by the models"
                y = y / pool(np.ones_like(i[0][:, :1]), k, st, pads, np.sum, 0)
        elif op == "GlobalAveragePool":
            y = i[0].mean(axis=(2, 3), keepdims=True)
        elif op == "Flatten":
            y = i[0].reshape(i[0].shape[0], -1)
        elif op == "Reshape":
            # A 0 copies the input's dimension (allowzero=0, the default); -1 is inferred.
            shape = [i[0].shape[d] if s == 0 else s for d, s in enumerate(i[1].astype(np.int64))]
            y = i[0].reshape(shape)
        elif op == "Squeeze":
            y = np.squeeze(i[0], axis=tuple(i[1].astype(np.int64)))
        elif op == "Concat":
            y = np.concatenate(i, axis=attr(node, "axis"))
        elif op == "Shape":
            y = np.array(i[0].shape, np.int64)
        elif op == "Slice":  # starts, ends, axes (default all), steps 1
            axes = i[3].astype(np.int64) if len(i) > 3 else range(len(i[1]))
            index = [slice(None)] * i[0].ndim
            for a, b, e in zip(axes, i[1].astype(np.int64), i[2].astype(np.int64)):
                index[int(a)] = slice(int(b), int(e))
            y = i[0][tuple(index)]
        elif op == "Pad":
            p = i[1].astype(np.int64)
            r = len(p) // 2
            y = np.pad(i[0], [(p[d], p[d + r]) for d in range(r)])
        elif op in ("Identity", "Dropout"):
            y = i[0]
        elif op == "QuantizeLinear":
            y = quantize(i[0], i[1], i[2] if len(i) > 2 else None)
        elif op == "DequantizeLinear":
            y = dequantize(i[0], i[1], i[2] if len(i) > 2 else None)
        elif op == "QLinearConv":
            x = dequantize(i[0], i[1], i[2])
            w = dequantize(i[3], i[4], i[5])
            b = i[8] * i[1] * i[4] if len(i) > 8 else None
            y = quantize(conv(x, w, b, attr(node, "strides", [1, 1]), attr(node, "pads", [0] * 4),
                              attr(node, "group", 1)), i[6], i[7])
        elif op == "QLinearMatMul":
            y = quantize(dequantize(i[0], i[1], i[2]) @ dequantize(i[3], i[4], i[5]), i[6], i[7])
        elif op == "QLinearAdd":
            y = quantize(dequantize(i[0], i[1], i[2]) + dequantize(i[3], i[4], i[5]), i[6], i[7])
        elif op == "QLinearGlobalAveragePool":
            y = quantize(dequantize(i[0], i[1], i[2]).mean(axis=(2, 3), keepdims=True), i[3], i[4])
        elif op == "Softmax":
            e = np.exp(i[0] - i[0].max(axis=-1, keepdims=True))
            y = e / e.sum(axis=-1, keepdims=True)
        elif op == "Mul":
            y = i[0] * i[1]  # numpy broadcasting is ONNX's multidirectional broadcasting
        elif op == "Sigmoid":
            y = 1 / (1 + np.exp(-i[0]))
        elif op == "HardSigmoid":
            y = np.clip(attr(node, "alpha", 0.2) * i[0] + attr(node, "beta", 0.5), 0, 1)
        elif op == "HardSwish":
            y = i[0] * np.clip(i[0] / 6 + 0.5, 0, 1)
        elif op == "Tanh":
            y = np.tanh(i[0])
        elif op == "LeakyRelu":
            y = np.where(i[0] >= 0, i[0], attr(node, "alpha", 0.01) * i[0])
        elif op in ("ReduceMean", "ReduceSum"):
            # axes: an attribute (ReduceMean up to opset 17), an input (ReduceSum from 13,
            # ReduceMean from 18); none = all axes.
            axes = attr(node, "axes") if len(i) < 2 or i[1] is None else i[1].astype(np.int64)
            fn = np.mean if op == "ReduceMean" else np.sum
            y = fn(i[0], axis=None if axes is None else tuple(int(a) for a in axes),
                   keepdims=bool(attr(node, "keepdims", 1)))
        elif op == "Sub":
            y = i[0] - i[1]
        elif op == "Div":
            y = i[0] / i[1]
        elif op == "Pow":
            y = np.power(i[0], i[1])
        elif op == "Sqrt":
            y = np.sqrt(i[0])
        elif op == "Erf":
            y = np.vectorize(math.erf)(i[0])
        elif op == "Transpose":
            y = np.transpose(i[0], attr(node, "perm"))  # None reverses the axes
        elif op == "Split":
            axis = attr(node, "axis", 0)
            # split: an input from opset 13, an attribute before; absent = equal parts.
            sizes = i[1] if len(i) > 1 and i[1] is not None else attr(node, "split")
            if sizes is None:
                y = np.split(i[0], len(node.output), axis=axis)
            else:
                y = np.split(i[0], np.cumsum(np.asarray(sizes, np.int64))[:-1], axis=axis)
        else:
            raise ValueError("make_models.py: no numpy version of " + op)
        outs = y if op == "Split" else [y]
        for name, value in zip(node.output, outs):
            env[name] = value
    return env[model.graph.output[0].name].astype(np.float32)


def qdq_cnn():
    """A pre-quantized CNN in QDQ form (as onnxruntime's quantize_static writes it with
    symmetric int8): QuantizeLinear/DequantizeLinear around every activation, int8 weights and
    int32 biases through DequantizeLinear; opset 13."""
    b = Builder("qdq_cnn", 6)
    r = b.rng

    def qdq(x, scale):
        s = b.const("s", np.array(scale, np.float32))
        z = b.const("z", np.array(0, np.int8))
        return b.node("DequantizeLinear", [b.node("QuantizeLinear", [x, s, z]), s, z])

    def qconv(x, cin, cout, k, s_in, s_w, stride=1):
        w = r.integers(-127, 128, (cout, cin, k, k)).astype(np.int8)
        bias = r.integers(-2000, 2000, cout).astype(np.int32)
        ws = b.const("ws", np.array(s_w, np.float32))
        bs = b.const("bs", np.array(s_in * s_w, np.float32))
        wdq = b.node("DequantizeLinear", [b.const("wq", w), ws])
        bdq = b.node("DequantizeLinear", [b.const("bq", bias), bs])
        return b.node("Conv", [x, wdq, bdq], "conv", kernel_shape=[k, k], strides=[stride, stride],
                      pads=[k // 2] * 4)

    x = qdq("input", 0.03)
    h = qdq(qconv(x, 3, 8, 3, 0.03, 0.004), 0.05)
    h = qdq(b.node("Relu", [h]), 0.05)
    h = qdq(b.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2]), 0.05)
    h = qdq(b.node("Relu", [qconv(h, 8, 16, 3, 0.05, 0.003)]), 0.04)
    h = qdq(b.node("GlobalAveragePool", [h]), 0.02)
    h = b.node("Flatten", [h])
    w = r.integers(-127, 128, (16, 5)).astype(np.int8)
    wdq = b.node("DequantizeLinear", [b.const("wq", w), b.const("ws", np.array(0.01, np.float32))])
    out = qdq(b.node("MatMul", [h, wdq]), 0.2)
    return b.model([1, 3, 8, 8], out, [1, 5], 13), [1, 3, 8, 8]


def qlinear_cnn():
    """A pre-quantized CNN in QOperator form: QLinearConv, QLinearAdd and
    QLinearGlobalAveragePool (com.microsoft), QLinearMatMul, int8 with zero points 0, and a
    uint8 input quantized with zero point 128 (the same values as int8); opset 13."""
    b = Builder("qlinear_cnn", 7)
    r = b.rng
    sc = lambda v: b.const("s", np.array(v, np.float32))  # noqa: E731
    z8 = lambda: b.const("z", np.array(0, np.int8))  # noqa: E731

    def qlconv(x, s_in, cin, cout, k, s_out):
        w = r.integers(-127, 128, (cout, cin, k, k)).astype(np.int8)
        bias = r.integers(-3000, 3000, cout).astype(np.int32)
        return b.node("QLinearConv", [x, sc(s_in), z8(), b.const("wq", w), sc(0.004), z8(),
                                      sc(s_out), z8(), b.const("bq", bias)],
                      "qconv", kernel_shape=[k, k], pads=[k // 2] * 4)

    zu = b.const("zu", np.array(128, np.uint8))
    su = sc(0.03)
    x = b.node("QuantizeLinear", ["input", su, zu])
    x = b.node("DequantizeLinear", [x, su, zu])
    x = b.node("QuantizeLinear", [x, sc(0.03), z8()])
    h = qlconv(x, 0.03, 4, 8, 3, 0.06)
    h = b.node("MaxPool", [h], kernel_shape=[2, 2], strides=[2, 2])
    a = qlconv(h, 0.06, 8, 8, 3, 0.05)
    c = qlconv(h, 0.06, 8, 8, 1, 0.07)
    h = b.node("QLinearAdd", [a, sc(0.05), z8(), c, sc(0.07), z8(), sc(0.08), z8()],
               domain="com.microsoft")
    h = b.node("QLinearGlobalAveragePool", [h, sc(0.08), z8(), sc(0.03), z8()],
               domain="com.microsoft")
    h = b.node("Flatten", [h])
    w = r.integers(-127, 128, (8, 6)).astype(np.int8)
    h = b.node("QLinearMatMul", [h, sc(0.03), z8(), b.const("wq", w), sc(0.01), z8(), sc(0.1),
                                 z8()])
    out = b.node("DequantizeLinear", [h, sc(0.1), z8()])
    m = b.model([1, 4, 8, 8], out, [1, 6], 13, domains=["com.microsoft"])
    return m, [1, 4, 8, 8]


def oversized_bias():
    """Tiny activations next to ordinary biases (issue 29): a convolution with weights of order
    1e-9 (no bias) feeds a convolution whose bias exceeds int32 at its accumulator's scale, and
    another such layer feeds the classifier, whose bias also exceeds it. The float output is
    about the classifier's bias; opset 13."""
    b = Builder("oversized_bias", 8)
    r = b.rng

    def tiny_conv(x, cin, cout, k):
        w = r.normal(0, 1e-9, (cout, cin, k, k)).astype(np.float32)
        return b.node("Conv", [x, b.const("w", w)], "conv", kernel_shape=[k, k],
                      strides=[1, 1], pads=[k // 2] * 4)

    def big_bias_conv(x, cin, cout):
        w = r.normal(0, np.sqrt(2.0 / (cin * 9)), (cout, cin, 3, 3)).astype(np.float32)
        bias = r.normal(0, 1.0, cout).astype(np.float32)
        return b.node("Conv", [x, b.const("w", w), b.const("b", bias)], "conv",
                      kernel_shape=[3, 3], strides=[1, 1], pads=[1] * 4)

    h = b.node("Relu", [tiny_conv("input", 4, 8, 3)])
    h = b.node("Relu", [big_bias_conv(h, 8, 8)])
    h = b.node("Relu", [tiny_conv(h, 8, 8, 1)])
    h = b.node("GlobalAveragePool", [h])
    h = b.node("Flatten", [h])
    w = r.normal(0, np.sqrt(2.0 / 8), (10, 8)).astype(np.float32)
    bias = r.normal(0, 1.0, 10).astype(np.float32)
    out = b.node("Gemm", [h, b.const("w", w), b.const("b", bias)], "fc", transB=1)
    return b.model([1, 4, 6, 6], out, [1, 10], 13), [1, 4, 6, 6]


def zoo_ops():
    """The ops and forms of torchvision's classification zoo (issue 29): a grouped conv (2
    groups) + BN + Relu; a depthwise conv with channel multiplier 2 (stride 2) + HardSwish; a
    grouped 1x1 conv (4 groups); a MobileNetV3 squeeze-and-excitation (ReduceSum keepdims 1,
    Relu, HardSigmoid, Mul broadcasting [1,C,1,1] over the map); SiLU as Mul(x, Sigmoid(x)); a
    ShuffleNet channel shuffle (Reshape to 5-D, Transpose, Reshape back); a 1x1 conv, Split
    into two halves (Tanh, LeakyRelu) and Concat; an EfficientNet squeeze-and-excitation
    (GlobalAveragePool, SiLU, Sigmoid, the broadcast operand of Mul first); a residual Add +
    Relu; a ceil-mode MaxPool; ReduceMean (keepdims 0) into the classifier; opset 14
    (HardSwish)."""
    b = Builder("zoo_ops", 9)

    def silu(x):
        return b.node("Mul", [x, b.node("Sigmoid", [x])])

    h = b.node("Relu", [b.bn(b.conv("input", 8, 16, 3, group=2, bias=False), 16)])
    h = b.node("HardSwish", [b.conv(h, 16, 32, 3, stride=2, group=16)])
    h = b.conv(h, 32, 32, 1, group=4)
    s = b.node("ReduceSum", [h, b.const("axes", np.array([2, 3], np.int64))], keepdims=1)
    s = b.node("Relu", [b.conv(s, 32, 8, 1)])
    s = b.node("HardSigmoid", [b.conv(s, 8, 32, 1)], alpha=1 / 6, beta=0.5)
    h = silu(b.node("Mul", [h, s]))
    h = b.node("Reshape", [h, b.const("shape", np.array([1, 2, 16, 6, 6], np.int64))])
    h = b.node("Transpose", [h], perm=[0, 2, 1, 3, 4])
    shuffled = b.node("Reshape", [h, b.const("shape", np.array([1, 32, 6, 6], np.int64))])
    mixed = b.conv(shuffled, 32, 32, 1)  # both signs into Tanh and LeakyRelu
    lo, hi = b.node("Split", [mixed, b.const("split", np.array([16, 16], np.int64))],
                    n_out=2, axis=1)
    h = b.node("Concat", [b.node("Tanh", [lo]), b.node("LeakyRelu", [hi], alpha=0.1)], axis=1)
    s = silu(b.conv(b.node("GlobalAveragePool", [h]), 32, 8, 1))
    s = b.node("Sigmoid", [b.conv(s, 8, 32, 1)])
    h = b.node("Add", [b.node("Mul", [s, h]), shuffled])
    # GoogLeNet's ceil-mode max pooling (6x6 -> 3x3 where floor gives 2x2) after a ReLU.
    h = b.node("MaxPool", [b.node("Relu", [h])], kernel_shape=[3, 3], strides=[2, 2],
               ceil_mode=1)
    h = b.node("ReduceMean", [h], axes=[2, 3], keepdims=0)
    out = b.gemm(h, 32, 10)
    return b.model([1, 8, 12, 12], out, [1, 10], 14), [1, 8, 12, 12]


def seg_head():
    """A small LRASPP-style segmentation head (issue 29): a dilated 3x3 conv, one with unequal
    dilations, a dilated depthwise conv, an ASPP-style dilation-6 conv, a squeeze-and-excitation scale (Sigmoid, Mul), bilinear Resize to sizes
    computed from the map's Shape (Slice, Concat of constants) (half_pixel), nearest Resize by scales (asymmetric, floor), bilinear Resize with
    align_corners, a strided grouped ConvTranspose (U-Net upsampling), a bilinear Resize to fewer
    rows and more columns (pytorch_half_pixel), and a per-pixel class map as the output; opset
    13."""
    b = Builder("seg_head", 10)
    low = b.node("Relu", [b.conv("input", 3, 8, 3, stride=2)])              # 8 x 8
    h = b.node("Relu", [b.conv(low, 8, 16, 3, pads=[2, 2, 2, 2], dilation=2)])
    # Unequal dilations (rows adjacent, columns 2 apart): the kernel of the whole span.
    h = b.node("Relu", [b.conv(h, 16, 16, 3, pads=[1, 2, 1, 2], dilation=(1, 2))])
    h = b.node("Relu", [b.conv(h, 16, 16, 3, stride=2, pads=[2, 2, 2, 2], group=16,
                               dilation=2)])                                # 4 x 4
    # A DeepLabV3 ASPP branch: dilation 6 on the 4 x 4 map, only the centre tap inside it.
    h = b.node("Add", [h, b.node("Relu", [b.conv(h, 16, 16, 3, pads=[6, 6, 6, 6],
                                                 dilation=6)])])
    high = h
    s = b.node("Sigmoid", [b.conv(b.node("GlobalAveragePool", [h]), 16, 16, 1)])
    h = b.node("Mul", [b.node("Relu", [b.conv(h, 16, 16, 1)]), s])
    empty = b.const("roi", np.zeros(0, np.float32))
    # The sizes as torch exports them: the input's N and C from its Shape, then the new H, W.
    nc = b.node("Slice", [b.node("Shape", [h]), b.const("start", np.array([0], np.int64)),
                          b.const("end", np.array([2], np.int64))])
    sizes = b.node("Concat", [nc, b.const("hw", np.array([8, 8], np.int64))], axis=0)
    h = b.node("Resize", [h, empty, empty, sizes], mode="linear",
               coordinate_transformation_mode="half_pixel")                  # 8 x 8
    h = b.node("Add", [b.conv(low, 8, 4, 1), b.conv(h, 16, 4, 1)])
    # U-Net style upsampling: a strided, grouped ConvTranspose of the 4 x 4 map to 8 x 8.
    wt = b.const("wt", b.rng.normal(0, 0.3, (16, 2, 3, 3)).astype(np.float32))
    up = b.node("ConvTranspose", [high, wt, b.const("bt", np.zeros(4, np.float32))],
                strides=[2, 2], pads=[1, 1, 1, 1], output_padding=[1, 1], group=2)
    h = b.node("Add", [h, up])
    scales = b.const("scales", np.array([1, 1, 2, 2], np.float32))
    near = b.node("Resize", [h, empty, scales], mode="nearest",
                  coordinate_transformation_mode="asymmetric", nearest_mode="floor")
    sizes2 = b.const("sizes", np.array([1, 4, 16, 16], np.int64))
    lin = b.node("Resize", [h, empty, empty, sizes2], mode="linear",
                 coordinate_transformation_mode="align_corners")
    out = b.node("Add", [near, lin])                                        # 16 x 16
    # Fewer rows, more columns (the rows' product first on the array), pytorch_half_pixel.
    sizes3 = b.const("sizes", np.array([1, 4, 12, 20], np.int64))
    out = b.node("Resize", [out, empty, empty, sizes3], mode="linear",
                 coordinate_transformation_mode="pytorch_half_pixel")      # 12 x 20
    return b.model([1, 3, 16, 16], out, [1, 4, 12, 20], 13), [1, 3, 16, 16]


def convnext_block():
    """A ConvNeXt stage as torch (opset 13) exports torchvision's convnext_tiny (issue 29): a
    patchify stem (2x2 stride 2) and LayerNorm2d (Transpose to channels-last, the ReduceMean /
    Sub / Pow / ReduceMean / Add / Sqrt / Div / Mul / Add chain, Transpose back); a block: a 7x7
    depthwise conv, Transpose, LayerNorm (its gain through an Identity, as torch shares
    weights), MatMul + Add (Linear), the exact GELU (Div by sqrt(2), Erf, Add 1, Mul, Mul 0.5),
    MatMul + Add, Transpose back, the layer scale (Mul by [C, 1, 1]) and the residual Add;
    the head's LayerNorm2d on the pooled [N, C, 1, 1] map, Flatten, GELU in its other form
    (x * 0.5 first, Mul by 1/sqrt(2)) and Gemm."""
    b = Builder("convnext_block", 11)
    r = b.rng

    def scalar(v):
        return b.const("c", np.array(v, np.float32))

    def layer_norm(x, c, gain_identity=False):
        mean = b.node("ReduceMean", [x], axes=[-1])
        d = b.node("Sub", [x, mean])
        var = b.node("ReduceMean", [b.node("Pow", [d, scalar(2.0)])], axes=[-1])
        n = b.node("Div", [d, b.node("Sqrt", [b.node("Add", [var, scalar(1e-6)])])])
        gain = b.const("gamma", r.uniform(0.5, 1.5, c).astype(np.float32))
        if gain_identity:
            gain = b.node("Identity", [gain])
        y = b.node("Mul", [n, gain])
        return b.node("Add", [y, b.const("beta", r.normal(0, 0.1, c).astype(np.float32))])

    def layer_norm_2d(x, c):
        h = b.node("Transpose", [x], perm=[0, 2, 3, 1])
        return b.node("Transpose", [layer_norm(h, c)], perm=[0, 3, 1, 2])

    def linear(x, k, n):
        w = r.normal(0, np.sqrt(2.0 / k), (k, n)).astype(np.float32)
        y = b.node("MatMul", [x, b.const("w", w)])
        return b.node("Add", [b.const("b", r.normal(0, 0.1, n).astype(np.float32)), y])

    def gelu(x):
        e = b.node("Erf", [b.node("Div", [x, scalar(np.sqrt(2.0))])])
        return b.node("Mul", [b.node("Mul", [x, b.node("Add", [e, scalar(1.0)])]), scalar(0.5)])

    def gelu_half_first(x):
        e = b.node("Erf", [b.node("Mul", [x, scalar(1 / np.sqrt(2.0))])])
        return b.node("Mul", [b.node("Mul", [x, scalar(0.5)]), b.node("Add", [scalar(1.0), e])])

    stem = layer_norm_2d(b.conv("input", 3, 16, 2, stride=2, pads=[0, 0, 0, 0]), 16)   # 8 x 8
    h = b.node("Transpose", [b.conv(stem, 16, 16, 7, group=16)], perm=[0, 2, 3, 1])
    h = linear(gelu(linear(layer_norm(h, 16, gain_identity=True), 16, 64)), 64, 16)
    h = b.node("Transpose", [h], perm=[0, 3, 1, 2])
    scale = b.const("layer_scale", r.uniform(0.2, 0.6, (16, 1, 1)).astype(np.float32))
    h = b.node("Add", [b.node("Mul", [scale, h]), stem])
    h = layer_norm_2d(b.node("GlobalAveragePool", [h]), 16)
    h = gelu_half_first(b.node("Flatten", [h], axis=1))
    out = b.gemm(h, 16, 10)
    return b.model([1, 3, 16, 16], out, [1, 10], 13), [1, 3, 16, 16]


def boveda_chain():
    """Three 3x3 convolutions of 16 channels at 16x16 (issue 28): a ReLU after the first (a
    tensor of zeros that Boveda compresses), none after the second (a linear tensor that would
    not shrink); the compiler's choice of what to store compressed is tested on it."""
    b = Builder("boveda_chain", 12)
    h = b.node("Relu", [b.conv("input", 16, 16, 3)])
    out = b.conv(b.conv(h, 16, 16, 3), 16, 16, 3)
    return b.model([1, 16, 16, 16], out, [1, 16, 16, 16], 13), [1, 16, 16, 16]


def spatial_copies():
    """Slice, Split and Concat along rows and columns (issue 29): a crop of rows and columns
    (one Slice over axes 2 and 3), a Split of the columns, a Concat of the halves along the rows
    (bottom first) and one along the columns; opset 13."""
    b = Builder("spatial_copies", 13)
    h = b.node("Relu", [b.conv("input", 8, 8, 3)])                                 # 8 x 8
    crop = b.node("Slice", [h, b.const("starts", np.array([1, 2], np.int64)),
                            b.const("ends", np.array([7, 8], np.int64)),
                            b.const("axes", np.array([2, 3], np.int64))])           # 6 x 6
    left, right = b.node("Split", [crop, b.const("split", np.array([3, 3], np.int64))],
                         n_out=2, axis=3)                                           # 6 x 3 each
    tall = b.node("Concat", [right, left], axis=2)                                  # 12 x 3
    wide = b.node("Concat", [b.node("Relu", [b.conv(tall, 8, 8, 3)]), tall], axis=-1)  # 12 x 6
    out = b.conv(wide, 8, 4, 1)
    return b.model([1, 8, 8, 8], out, [1, 4, 12, 6], 13), [1, 8, 8, 8]


MODELS = [mlp, lenet, resnet_block, mbv2_block, pool_concat, qdq_cnn, qlinear_cnn,
          oversized_bias, zoo_ops, seg_head, convnext_block, boveda_chain, spatial_copies]


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for make in MODELS:
        model, shape = make()
        name = model.graph.name
        onnx.save(model, os.path.join(out_dir, name + ".onnx"))
        x = np.random.default_rng(100).normal(0, 1, shape).astype(np.float32)
        np.save(os.path.join(out_dir, name + ".input.npy"), x)
        np.save(os.path.join(out_dir, name + ".output.npy"), run_numpy(model, x))
        print(f"{name}: {len(model.graph.node)} nodes")


if __name__ == "__main__":
    main()
