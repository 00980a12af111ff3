#!/usr/bin/env python3
"""Plain PyTorch training throughput of haifu's own per-suit CNN (neural/src/model.rs, `--layers L --channels C`),
with its inputs already laid out as planes on the device: the ceiling for `haifu train --model cnn`, as
../shared/bench/anchor_train.py is for the networks whose shapes it shares with haifu's (its CNN is another
design: one-dimensional convolutions over 80 stacked planes, the honors through a linear layer, a head of 1024).
Same batch, loss and optimiser as haifu (Adam, lr 1e-3; PyTorch's default multi-tensor Adam); bf16 as haifu's
--bf16 does it (weights and activations in bfloat16, not autocast). One JSON line per precision.

usage: anchor-haifu-cnn.py [BATCH] [LAYERS] [CHANNELS]
"""
import json, sys, time
import torch, torch.nn as nn

dev = 'cuda' if torch.cuda.is_available() else 'cpu'
B = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
LAYERS = int(sys.argv[2]) if len(sys.argv) > 2 else 4
CH = int(sys.argv[3]) if len(sys.argv) > 3 else 128
STEPS = 60


def block(cin, cout, kernel, padding):
    return [nn.Conv2d(cin, cout, kernel, padding=padding), nn.BatchNorm2d(cout), nn.ReLU()]


class HaifuCnn(nn.Module):
    """20 planes x 9 digits x 4 copy columns per suit (filters shared by the suits), 21 x 7 x 4 honors, 35
    scalars, a hidden layer of 512 with batch norm, 34 logits."""

    def __init__(self):
        super().__init__()
        suit, honor = block(20, CH, (3, 4), (1, 0)), block(21, CH, (1, 4), 0)
        for _ in range(LAYERS - 1):
            suit += block(CH, CH, (3, 1), (1, 0))
            honor += block(CH, CH, (1, 1), 0)
        self.suit, self.honor = nn.Sequential(*suit), nn.Sequential(*honor)
        self.hidden = nn.Sequential(nn.Linear(CH * 34 + 35, 512), nn.BatchNorm1d(512), nn.ReLU())
        self.out = nn.Linear(512, 34)

    def forward(self, suits, honors, scalars):
        b = honors.shape[0]
        s = self.suit(suits).reshape(b, 3 * 9 * CH)
        h = self.honor(honors).reshape(b, 7 * CH)
        return self.out(self.hidden(torch.cat([s, h, scalars], 1)))


def bench(bf16):
    kind = torch.bfloat16 if bf16 else torch.float32
    model = HaifuCnn().to(dev, kind)
    opt = torch.optim.Adam(model.parameters(), 1e-3)
    suits = (torch.rand(B * 3, 20, 9, 4, device=dev) < .1).to(kind)
    honors = (torch.rand(B, 21, 7, 4, device=dev) < .1).to(kind)
    scalars = (torch.rand(B, 35, device=dev) < .1).to(kind)
    y = torch.randint(0, 34, (B,), device=dev)

    def step():
        loss = nn.functional.cross_entropy(model(suits, honors, scalars).float(), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    for _ in range(10):
        step()
    if dev == 'cuda':
        torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(STEPS):
        step()
    if dev == 'cuda':
        torch.cuda.synchronize()
    dt = time.perf_counter() - t
    print(json.dumps({'model': f'haifu-cnn-{LAYERS}x{CH}', 'bf16': bf16, 'batch': B,
                      'params': sum(p.numel() for p in model.parameters()),
                      'positions_per_s': round(B * STEPS / dt),
                      'device': torch.cuda.get_device_name() if dev == 'cuda' else 'cpu'}), flush=True)


for bf16 in (False, True):
    bench(bf16)
