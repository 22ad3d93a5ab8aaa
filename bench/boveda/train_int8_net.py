#!/usr/bin/python3
"""Trains a small CNN on procedurally generated images for 600 steps (about 20 s), quantizes it to int8
and dumps the tensors Boveda is evaluated on (docs/boveda.md, "Measured"): every layer's int8
weights and the post-ReLU int8 activations of a batch of test images.

No download: the data set is drawn here (10 classes of 16x16 shapes: bars, crosses, boxes,
discs, diagonals, with random position, size, contrast and noise). Deterministic for a seed
(torch's CPU kernels on one thread). Needs Debian's python3-torch and python3-numpy.

    /usr/bin/python3 bench/boveda/train_int8_net.py OUT_DIR [--steps 600] [--seed 1]

Writes OUT_DIR/<name>.i8 (raw int8, row-major) and OUT_DIR/tensors.txt, one line per tensor:
    name kind rows cols      (kind: weight or activation; rows x cols as a matrix, i.e. the
                              layout an accelerator moves: weights as K x N, activations as
                              pixels x channels)
"""
import argparse
import os
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SIZE = 16
CLASSES = 10


def draw(cls, rng):
    """One 16x16 image of class `cls` (float32 in [0, 1])."""
    img = np.zeros((SIZE, SIZE), np.float32)
    c = rng.uniform(0.5, 1.0)
    x0, y0 = rng.integers(3, SIZE - 3, 2)
    r = int(rng.integers(2, 6))
    yy, xx = np.mgrid[0:SIZE, 0:SIZE]
    if cls == 0:  # horizontal bar
        img[max(0, y0 - 1):y0 + 1, :] = c
    elif cls == 1:  # vertical bar
        img[:, max(0, x0 - 1):x0 + 1] = c
    elif cls == 2:  # cross
        img[y0, :] = c
        img[:, x0] = c
    elif cls == 3:  # hollow box
        img[max(0, y0 - r):y0 + r, max(0, x0 - r):x0 + r] = c
        img[max(0, y0 - r + 1):y0 + r - 1, max(0, x0 - r + 1):x0 + r - 1] = 0
    elif cls == 4:  # filled disc
        img[(yy - y0) ** 2 + (xx - x0) ** 2 <= r * r] = c
    elif cls == 5:  # ring
        d = (yy - y0) ** 2 + (xx - x0) ** 2
        img[(d <= r * r) & (d >= (r - 1) ** 2)] = c
    elif cls == 6:  # main diagonal
        img[np.abs((yy - y0) - (xx - x0)) <= 0] = c
    elif cls == 7:  # anti-diagonal
        img[np.abs((yy - y0) + (xx - x0)) <= 0] = c
    elif cls == 8:  # checker patch
        m = ((yy // 2 + xx // 2) % 2 == 0) & (np.abs(yy - y0) <= r) & (np.abs(xx - x0) <= r)
        img[m] = c
    else:  # two dots
        img[y0, x0] = c
        img[(y0 + r) % SIZE, (x0 + r) % SIZE] = c
    img += rng.normal(0, 0.08, img.shape).astype(np.float32)
    return np.clip(img, 0, 1)


def batch(n, rng):
    ys = rng.integers(0, CLASSES, n)
    xs = np.stack([draw(int(y), rng) for y in ys])[:, None]
    return torch.from_numpy(xs), torch.from_numpy(ys.astype(np.int64))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 16, 3, padding=1)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)
        self.fc1 = nn.Linear(32 * 4 * 4, 256)
        self.fc2 = nn.Linear(256, CLASSES)

    def forward(self, x, taps=None):
        a1 = F.relu(self.conv1(x))
        p1 = F.max_pool2d(a1, 2)
        a2 = F.relu(self.conv2(p1))
        p2 = F.max_pool2d(a2, 2)
        f = p2.flatten(1)
        a3 = F.relu(self.fc1(f))
        if taps is not None:
            taps.update(conv1=a1, conv2=a2, fc1_in=f, fc1=a3)
        return self.fc2(a3)


def quantize_weight(w):
    """Symmetric per-tensor int8: the scale maps the largest magnitude to 127."""
    s = w.abs().max().item() / 127.0
    return torch.clamp(torch.round(w / s), -128, 127).to(torch.int8)


def quantize_activation(a, s):
    return torch.clamp(torch.round(a / s), 0, 127).to(torch.int8)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--steps", type=int, default=600)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    net = Net()
    opt = torch.optim.Adam(net.parameters(), lr=2e-3)
    start = time.time()
    for _ in range(args.steps):
        x, y = batch(64, rng)
        loss = F.cross_entropy(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    x, y = batch(512, rng)
    with torch.no_grad():
        taps = {}
        acc = (net(x, taps).argmax(1) == y).float().mean().item()
    print(f"trained {args.steps} steps in {time.time() - start:.0f} s: loss {loss.item():.3f}, "
          f"test accuracy {acc:.3f} on 512 images")

    os.makedirs(args.out, exist_ok=True)
    lines = []

    def dump(name, kind, matrix):
        m = matrix.contiguous().numpy().astype(np.int8)
        m.tofile(os.path.join(args.out, name + ".i8"))
        lines.append(f"{name} {kind} {m.shape[0]} {m.shape[1]}")

    with torch.no_grad():
        # Weights as K x N matrices (what a WS layer moves): conv as im2col (cin*kh*kw x cout).
        for name, layer in [("conv1", net.conv1), ("conv2", net.conv2), ("fc1", net.fc1),
                            ("fc2", net.fc2)]:
            w = quantize_weight(layer.weight.detach())
            dump(name + ".weight", "weight", w.reshape(w.shape[0], -1).t())
        # Post-ReLU activations of 16 images as pixels x channels, scaled by their 99.9th
        # percentile (a typical calibration).
        for name in ["conv1", "conv2", "fc1_in", "fc1"]:
            a = taps[name][:16]
            s = max(torch.quantile(a.flatten(), 0.999).item(), 1e-6) / 127.0
            q = quantize_activation(a, s)
            if q.dim() == 4:  # N x C x H x W -> (N*H*W) x C
                q = q.permute(0, 2, 3, 1).reshape(-1, q.shape[1])
            dump(name + ".act", "activation", q)
    with open(os.path.join(args.out, "tensors.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} tensors to {args.out}")


if __name__ == "__main__":
    main()
