#!/usr/bin/python3
"""Trains the digits CNN (bench/boveda/train_int8_net.py's network and procedurally drawn 16x16
images of 10 shape classes; about 20 s on one core) and exports it to ONNX for the compiler.

    /usr/bin/python3 bench/compiler/train_digits.py MODEL_DIR [--steps 600] [--seed 1]
    /usr/bin/python3 bench/compiler/train_digits.py --test-set N OUT_DIR [--seed 7]

The first form writes MODEL_DIR/digits.onnx (float, opset 13, batch 1), digits.calib.npy
(32 training images for calibration), digits.input.npy (one test image) and prints the float
model's accuracy. The second writes OUT_DIR/digits_test_x.npy ([N, 1, 16, 16] float32),
digits_test_y.npy (labels) and digits_test_float.npy (the float model's logits, from the
ONNX file's weights via torch) for the accuracy benchmark (bench/compiler/run.sh). Both are
deterministic for their seeds (torch's CPU kernels on one thread). Needs python3-torch.
"""
import argparse
import os
import sys

import numpy as np
import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "boveda"))
from train_int8_net import Net, batch  # noqa: E402  (the same network and data)


def train(steps, seed):
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(seed)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=2e-3)
    for _ in range(steps):
        x, y = batch(64, rng)
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return net, rng


def export(net, model_dir, rng):
    os.makedirs(model_dir, exist_ok=True)
    net.eval()
    path = os.path.join(model_dir, "digits.onnx")
    torch.onnx.export(net, torch.zeros(1, 1, 16, 16), path, input_names=["image"],
                      output_names=["logits"], opset_version=13, do_constant_folding=True)
    calib, _ = batch(32, rng)
    np.save(os.path.join(model_dir, "digits.calib.npy"), calib.numpy().astype(np.float32))
    x, _ = batch(1, rng)
    np.save(os.path.join(model_dir, "digits.input.npy"), x.numpy().astype(np.float32))
    return path


def load_from_onnx(path):
    """The network with the weights of the ONNX file (so the float reference is the model)."""
    import onnx
    from onnx import numpy_helper
    m = onnx.load(path)
    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy())
               for i in m.graph.initializer}
    net = Net()
    state = net.state_dict()
    for k in state:
        if k in weights:
            state[k] = weights[k]
    net.load_state_dict(state)
    return net.eval()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--test-set", type=int, default=0)
    ap.add_argument("--model", default=None, help="digits.onnx for --test-set")
    args = ap.parse_args()
    if args.test_set:
        seed = 7 if args.seed is None else args.seed
        rng = np.random.default_rng(seed)
        x, y = batch(args.test_set, rng)
        os.makedirs(args.dir, exist_ok=True)
        np.save(os.path.join(args.dir, "digits_test_x.npy"), x.numpy().astype(np.float32))
        np.save(os.path.join(args.dir, "digits_test_y.npy"), y.numpy().astype(np.int64))
        if args.model:
            with torch.no_grad():
                logits = load_from_onnx(args.model)(x).numpy()
            np.save(os.path.join(args.dir, "digits_test_float.npy"), logits.astype(np.float32))
            acc = float((logits.argmax(1) == y.numpy()).mean())
            print(f"float model (torch, weights from {args.model}): top-1 {acc:.4f} on "
                  f"{args.test_set} test images (seed {seed})")
        return
    net, rng = train(args.steps, 1 if args.seed is None else args.seed)
    path = export(net, args.dir, rng)
    x, y = batch(512, rng)
    with torch.no_grad():
        acc = (net(x).argmax(1) == y).float().mean().item()
    print(f"wrote {path} ({os.path.getsize(path)} bytes); float test accuracy {acc:.3f} on "
          f"512 images")


if __name__ == "__main__":
    main()
