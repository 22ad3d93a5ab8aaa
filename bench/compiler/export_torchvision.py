#!/usr/bin/python3
"""Exports torchvision networks with random weights (seeded) to ONNX for the compiler
benchmarks, with one random input each.

    /usr/bin/python3 bench/compiler/export_torchvision.py [--prune F] OUT_DIR [resnet50 ...]

Writes OUT_DIR/<net>.onnx (float, opset 13, batch 1, 224x224), OUT_DIR/<net>.input.npy
(normal(0, 1), the range of a normalised image) and OUT_DIR/<net>.output.npy (torch's fp32
output for it, the reference of bench/compiler/zoo.sh's agreement). `zoo` as the only name
exports every CNN family of torchvision 0.14's classification models (ZOO); segmentation
networks (e.g. lraspp_mobilenet_v3_large) export their "out" map. Needs Debian's
python3-torch and
python3-torchvision (scripts/setup.sh --bench). BatchNorm layers get random running
statistics so that folding them is not trivial.

--prune F (0 < F < 1) zeroes the fraction F of smallest-magnitude weights of every
convolution and linear layer (per layer, unstructured: what magnitude pruning leaves before
fine-tuning) and names the files <net>_pruned<100F>: the sparse-weight case TensorDash and
Boveda are built for, which random dense weights do not have.
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


def prune_weights(net, fraction):
    for m in net.modules():
        if isinstance(m, (torch.nn.Conv2d, torch.nn.Linear)):
            w = m.weight.data
            k = int(round(fraction * w.numel()))
            if k > 0:
                cut = w.abs().flatten().kthvalue(k).values
                w.mul_((w.abs() > cut).to(w.dtype))


class OutputOf(torch.nn.Module):
    """A segmentation network's "out" map as its only output."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, x):
        return self.net(x)["out"]


# One network per CNN family of torchvision 0.14's classification models (the vision
# transformers vit, swin and maxvit are out of scope; vgg and wide_resnet are the slowest).
ZOO = ["alexnet", "vgg11", "resnet18", "resnet50", "resnext50_32x4d", "wide_resnet50_2",
       "squeezenet1_1", "densenet121", "inception_v3", "googlenet", "shufflenet_v2_x1_0",
       "mobilenet_v2", "mobilenet_v3_small", "mobilenet_v3_large", "mnasnet1_0",
       "efficientnet_b0", "efficientnet_v2_s", "regnet_x_400mf", "regnet_y_400mf",
       "convnext_tiny"]


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    args = sys.argv[1:]
    prune = 0.0
    if args[:1] == ["--prune"]:
        prune = float(args[1])
        if not 0.0 < prune < 1.0:
            sys.exit("--prune wants a fraction between 0 and 1")
        args = args[2:]
    if not args:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    out = args[0]
    names = args[1:] or ["resnet50", "resnet18", "mobilenet_v2"]
    if names == ["zoo"]:
        names = ZOO
    os.makedirs(out, exist_ok=True)
    torch.set_num_threads(1)
    for i, name in enumerate(names):
        torch.manual_seed(100 + i)
        gen = torch.Generator().manual_seed(200 + i)
        if hasattr(torchvision.models.segmentation, name):
            # Segmentation networks return {"out": map, ...}: the map is the output.
            seg = getattr(torchvision.models.segmentation, name)(weights=None,
                                                                 weights_backbone=None)
            net = OutputOf(seg)
        else:
            net = getattr(torchvision.models, name)(weights=None)
        randomize_batchnorm(net, gen)
        if prune:
            prune_weights(net, prune)
        net.eval()
        x = torch.randn(1, 3, 224, 224, generator=gen)
        stem = name + (f"_pruned{round(prune * 100)}" if prune else "")
        path = os.path.join(out, stem + ".onnx")
        torch.onnx.export(net, x, path, opset_version=13, input_names=["image"],
                          output_names=["logits"], do_constant_folding=True)
        np.save(os.path.join(out, stem + ".input.npy"), x.numpy().astype(np.float32))
        with torch.no_grad():
            np.save(os.path.join(out, stem + ".output.npy"), net(x).numpy().astype(np.float32))
        print(f"{stem}: {path} ({os.path.getsize(path) >> 20} MiB)")


if __name__ == "__main__":
    main()
