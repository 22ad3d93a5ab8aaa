#!/usr/bin/python3
"""Writes malformed and unsupported ONNX models for the compiler's rejection tests
(testbenches/compiler/bad_models_test.cpp): each must give one error line that names the
problem (the node and op where there is one) and exit code 2, writing nothing.

    /usr/bin/python3 testbenches/compiler/make_bad_models.py OUT_DIR

Deterministic; built with python3-onnx's helper API. Writes OUT_DIR/<name>.onnx.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def model(nodes, inits, x_shape, y_shape, opset=13, x_type=TensorProto.FLOAT, check=True,
          domains=()):
    graph = helper.make_graph(
        nodes, "bad",
        [helper.make_tensor_value_info("x", x_type, x_shape)],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, y_shape)],
        [numpy_helper.from_array(v, k) for k, v in inits.items()])
    imports = [helper.make_opsetid("", opset)] + [helper.make_opsetid(d, 1) for d in domains]
    m = helper.make_model(graph, opset_imports=imports, producer_name="make_bad_models.py")
    m.ir_version = 7
    if check:
        onnx.checker.check_model(m)
    return m


def weights(*shape):
    return np.random.default_rng(7).normal(0, 0.3, shape).astype(np.float32)


def conv(name, inp, out, w, **attrs):
    return helper.make_node("Conv", [inp, w], [out], name=name, **attrs)


def models():
    m = {}
    # An op the compiler does not have.
    m["unsupported_op"] = model(
        [conv("conv1", "x", "h", "w", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
         helper.make_node("Erf", ["h"], ["y"], name="erf")],
        {"w": weights(4, 3, 3, 3)}, [1, 3, 8, 8], [1, 4, 8, 8])
    # Dilated max pooling.
    m["dilated_pool"] = model(
        [conv("conv1", "x", "h", "w", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
         helper.make_node("MaxPool", ["h"], ["y"], name="dilpool", kernel_shape=[2, 2],
                          dilations=[2, 2])],
        {"w": weights(4, 3, 3, 3)}, [1, 3, 8, 8], [1, 4, 6, 6])
    # A transpose that is neither a channel shuffle's nor a channels-last view (H and W swap).
    m["swap_hw_transpose"] = model(
        [conv("conv1", "x", "h", "w", kernel_shape=[3, 3], pads=[1, 1, 1, 1]),
         helper.make_node("Transpose", ["h"], ["y"], name="swap_hw", perm=[0, 1, 3, 2])],
        {"w": weights(4, 3, 3, 3)}, [1, 3, 8, 8], [1, 4, 8, 8])
    # A channels-last view read by a convolution (it would read H as the channels).
    m["conv_of_nhwc_view"] = model(
        [helper.make_node("Transpose", ["x"], ["t"], name="to_nhwc", perm=[0, 2, 3, 1]),
         conv("conv_nhwc", "t", "y", "w", kernel_shape=[1, 1])],
        {"w": weights(4, 8, 1, 1)}, [1, 3, 8, 8], [1, 4, 8, 3])
    # torch's layer normalization chain over the last axis of an NCHW map: over W, not the
    # channels.
    m["layernorm_over_width"] = model(
        [helper.make_node("ReduceMean", ["x"], ["m"], name="ln_mean", axes=[-1]),
         helper.make_node("Sub", ["x", "m"], ["d"], name="ln_sub"),
         helper.make_node("Pow", ["d", "two"], ["p"], name="ln_pow"),
         helper.make_node("ReduceMean", ["p"], ["v"], name="ln_var", axes=[-1]),
         helper.make_node("Add", ["v", "eps"], ["e"], name="ln_eps"),
         helper.make_node("Sqrt", ["e"], ["s"], name="ln_sqrt"),
         helper.make_node("Div", ["d", "s"], ["y"], name="ln_div")],
        {"two": np.array(2.0, np.float32), "eps": np.array(1e-5, np.float32)},
        [1, 4, 8, 8], [1, 4, 8, 8])
    # A spatial dimension that is symbolic.
    m["dynamic_shape"] = model(
        [conv("c", "x", "y", "w", kernel_shape=[1, 1])],
        {"w": weights(4, 3, 1, 1)}, [1, 3, "height", 8], [1, 4, "height", 8])
    # Asymmetric (uint8, zero point 3) activation quantization.
    m["asymmetric_qdq"] = model(
        [helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["q"], name="quant_in"),
         helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["y"], name="dequant")],
        {"s": np.array(0.05, np.float32), "zp": np.array(3, np.uint8)}, [1, 8], [1, 8])
    # Matrix product of two activations.
    m["matmul_activations"] = model(
        [helper.make_node("Relu", ["x"], ["r"], name="relu"),
         helper.make_node("MatMul", ["r", "r"], ["y"], name="gram")],
        {}, [4, 4], [4, 4])
    # Broadcasting add of two activations.
    m["broadcast_add"] = model(
        [helper.make_node("GlobalAveragePool", ["x"], ["g"], name="gap"),
         helper.make_node("Add", ["x", "g"], ["y"], name="bcast_add")],
        {}, [1, 4, 8, 8], [1, 4, 8, 8])
    # A reshape that reorders the data.
    m["reordering_reshape"] = model(
        [helper.make_node("Reshape", ["x", "shape"], ["y"], name="reshape_hw")],
        {"shape": np.array([1, 8, 4, 8], np.int64)}, [1, 4, 8, 8], [1, 8, 4, 8])
    # An opset the compiler does not take.
    m["old_opset"] = model(
        [helper.make_node("Relu", ["x"], ["y"], name="relu")], {}, [1, 8], [1, 8], opset=9)
    # A non-float input.
    m["int_input"] = model(
        [helper.make_node("Cast", ["x"], ["y"], name="cast", to=TensorProto.FLOAT)],
        {}, [1, 8], [1, 8], x_type=TensorProto.INT64)
    # Two model outputs are built by hand below; a model whose activations exceed the
    # config's DRAM (tiny: 64 MiB): a 1x1 conv over a 64 x 4096 x 4096 map.
    m["too_large"] = model(
        [conv("big", "x", "y", "w", kernel_shape=[1, 1])],
        {"w": weights(4, 64, 1, 1)}, [1, 64, 4096, 4096], [1, 4, 4096, 4096])
    # Per-channel asymmetric weights in QLinearConv.
    m["weight_zero_point"] = model(
        [helper.make_node("QuantizeLinear", ["x", "xs", "xz"], ["xq"], name="qin"),
         helper.make_node("QLinearConv", ["xq", "xs", "xz", "w", "ws", "wz", "ys", "yz"], ["yq"],
                          name="qconv", kernel_shape=[1, 1]),
         helper.make_node("DequantizeLinear", ["yq", "ys", "yz"], ["y"], name="qout")],
        {"xs": np.array(0.02, np.float32), "xz": np.array(0, np.int8),
         "w": np.ones((4, 3, 1, 1), np.int8), "ws": np.array(0.01, np.float32),
         "wz": np.array(5, np.int8), "ys": np.array(0.05, np.float32),
         "yz": np.array(0, np.int8)}, [1, 3, 4, 4], [1, 4, 4, 4])
    return m


def main():
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, mdl in models().items():
        onnx.save(mdl, os.path.join(out, name + ".onnx"))
    # Not ONNX at all, and a valid model cut in half.
    with open(os.path.join(out, "not_onnx.onnx"), "wb") as f:
        f.write(b"this is a text file, not a protobuf\n" * 4)
    good = models()["dilated_pool"].SerializeToString()
    with open(os.path.join(out, "truncated.onnx"), "wb") as f:
        f.write(good[: len(good) // 2])
    print("wrote", len(models()) + 2, "models to", out)


if __name__ == "__main__":
    main()
