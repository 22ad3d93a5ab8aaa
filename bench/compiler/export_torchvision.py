#!/usr/bin/python3
"""Exports torchvision networks with random weights (seeded) to ONNX for the compiler
benchmarks, with one random input each.

    /usr/bin/python3 bench/compiler/export_torchvision.py OUT_DIR [resnet50 resnet18 mobilenet_v2]

Writes OUT_DIR/<net>.onnx (float, opset 13, batch 1, 224x224) and OUT_DIR/<net>.input.npy
(normal(0, 1), the range of a normalised image). Needs Debian's python3-torch and
python3-torchvision (scripts/setup.sh --bench). BatchNorm layers get random running
statistics so that folding them is not trivial.
"""
import os
import sys

import numpy as np
import torch
import torchvision


def randomize_batchnorm(net, gen):
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            m.running_mean.copy_(torch.randn(m.num_features, generator=gen) * 0.1)
            m.running_var.copy_(torch.rand(m.num_features, generator=gen) + 0.5)
            m.weight.data.copy_(torch.rand(m.num_features, generator=gen) + 0.5)
            m.bias.data.copy_(torch.randn(m.num_features, generator=gen) * 0.1)


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    out = sys.argv[1]
    names = sys.argv[2:] or ["resnet50", "resnet18", "mobilenet_v2"]
    os.makedirs(out, exist_ok=True)
    torch.set_num_threads(1)
    for i, name in enumerate(names):
        torch.manual_seed(100 + i)
        gen = torch.Generator().manual_seed(200 + i)
        net = getattr(torchvision.models, name)(weights=None)
        randomize_batchnorm(net, gen)
        net.eval()
        x = torch.randn(1, 3, 224, 224, generator=gen)
        path = os.path.join(out, name + ".onnx")
        torch.onnx.export(net, x, path, opset_version=13, input_names=["image"],
                          output_names=["logits"], do_constant_folding=True)
        np.save(os.path.join(out, name + ".input.npy"), x.numpy().astype(np.float32))
        print(f"{name}: {path} ({os.path.getsize(path) >> 20} MiB)")


if __name__ == "__main__":
    main()
