"""Seed 004's MLP trained in plain PyTorch on haifu.positions, beside `haifu train --model mlp` on the same
split with the same settings: both test top-1 figures printed side by side.

    python python/examples/train_mlp.py DATASET [--years 2017 --test-years 2018] [--haifu PATH/TO/haifu]

Needs torch and the haifu module in one environment (`pip install ./python` into the venv that has torch).
The network is the one `haifu train` builds (neural/src/model.rs): `--layers` hidden layers of `--width`,
each linear, batch norm (eps 1e-5) and ReLU, then a linear layer to the 34 kinds; the illegal kinds masked
to -1e9 in the loss and the ranking; Adam (no weight decay), the learning rate divided by 10 for the last
third of the epochs (3 or more); batches of shuffled training positions (a last batch of one row skipped).
The initial weights are drawn from the distributions haifu train draws them from (tch's defaults, which are
not PyTorch's: `--init torch` keeps PyTorch's). The two runs draw the weights and their orders from different
generators: the figures agree within the spread of seeds, not bit for bit.
"""

import argparse
import json
import math
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

import haifu


def mlp(layers: int, width: int, init: str) -> nn.Module:
    parts, inputs = [], haifu.FEATURES
    for _ in range(layers):
        parts += [nn.Linear(inputs, width), nn.BatchNorm1d(width, eps=1e-5), nn.ReLU()]
        inputs = width
    parts.append(nn.Linear(inputs, 34))
    net = nn.Sequential(*parts)
    if init == "haifu":
        # tch's defaults, which haifu train draws with: linear weights Kaiming-uniform with ReLU's gain
        # (bound sqrt(6 / fan_in), PyTorch's is 1 / sqrt(fan_in)), biases as PyTorch's, and batch norm's scale
        # uniform in [0, 1) (PyTorch's is 1)
        for m in net:
            if isinstance(m, nn.Linear):
                bound = math.sqrt(6 / m.in_features)
                nn.init.uniform_(m.weight, -bound, bound)
            elif isinstance(m, nn.BatchNorm1d):
                nn.init.uniform_(m.weight, 0.0, 1.0)
    return net


def tensors(p: haifu.Positions):
    """Features, legal mask and labels as tensors (unpacked once: the whole set fits in memory here)."""
    return (
        torch.from_numpy(p.unpacked().astype(np.float32)),
        torch.from_numpy(p.mask()),
        torch.from_numpy(p.label.astype(np.int64)),
    )


def masked(logits, legal):
    return logits.masked_fill(~legal, -1e9)


def top1(net, x, legal, y, batch):
    net.eval()
    hits = 0
    with torch.no_grad():
        for i in range(0, len(y), batch):
            s = masked(net(x[i : i + batch]), legal[i : i + batch])
            hits += (s.argmax(1) == y[i : i + batch]).sum().item()
    return hits / len(y)


def train(train_set, test_set, a) -> float:
    torch.manual_seed(a.seed)
    x, legal, y = tensors(train_set)
    tx, tlegal, ty = tensors(test_set)
    net = mlp(a.layers, a.width, a.init)
    opt = torch.optim.Adam(net.parameters(), lr=a.lr)
    for epoch in range(a.epochs):
        lr = a.lr / 10 if a.epochs >= 3 and epoch >= a.epochs - a.epochs // 3 else a.lr
        for g in opt.param_groups:
            g["lr"] = lr
        net.train()
        order = torch.randperm(len(y))
        t = time.time()
        for i in range(0, len(y), a.batch):
            idx = order[i : i + a.batch]
            if len(idx) < 2:  # batch norm needs two rows, as haifu train skips such a tail
                continue
            loss = nn.functional.cross_entropy(masked(net(x[idx]), legal[idx]), y[idx])
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = top1(net, tx, tlegal, ty, a.batch)
        print(f"pytorch epoch {epoch + 1}: lr {lr:g}, test top-1 {acc:.4f} ({time.time() - t:.1f} s)")
    return acc


def haifu_train(a) -> float:
    """`haifu train` with the same settings; its test top-1 from --json."""
    with tempfile.TemporaryDirectory() as out:
        cmd = [a.haifu, "train", "--dataset", a.dataset, "--model", "mlp", "--layers", str(a.layers),
               "--channels", str(a.width), "--epochs", str(a.epochs), "--batch", str(a.batch), "--lr", str(a.lr),
               "--seed", str(a.seed), "--device", "cpu", "--out", out, "--json"]
        if a.years:
            cmd += ["--years", ",".join(map(str, a.years))]
        if a.test_years:
            cmd += ["--test-years", ",".join(map(str, a.test_years))]
        report = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        return report["test_top1"]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dataset")
    p.add_argument("--years", type=int, nargs="*", default=[])
    p.add_argument("--test-years", type=int, nargs="*", default=[])
    p.add_argument("--layers", type=int, default=5)
    p.add_argument("--width", type=int, default=512)
    p.add_argument("--epochs", type=int, default=3)
    p.add_argument("--batch", type=int, default=5000)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--init", choices=["haifu", "torch"], default="haifu",
                   help="initial weights drawn as haifu train draws them (tch's defaults) or as PyTorch's layers do")
    p.add_argument("--haifu", default="haifu", help="the haifu binary (haifu-neural beside it or on PATH)")
    a = p.parse_args()
    train_set, test_set = haifu.positions(a.dataset, years=a.years, test_years=a.test_years)
    print(f"{a.dataset}: {len(train_set)} training positions, {len(test_set)} test positions")
    ours = train(train_set, test_set, a)
    theirs = haifu_train(a)
    print(f"test top-1: PyTorch on haifu.positions {ours:.4f}, haifu train --model mlp {theirs:.4f}, "
          f"difference {100 * (ours - theirs):+.2f} points")


if __name__ == "__main__":
    main()
