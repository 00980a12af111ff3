#!/usr/bin/env python3
"""Plain PyTorch of haifu's MLP scoring path (docs/PERFORMANCE.md, "Third lend", call 0): what each part of
`haifu neural eval` costs on a GPU, on synthetic bit-packed positions, and which changes would pay. Prints one
JSON object. Each figure is the median of five passes after one untimed pass.

    python3 scripts/eval-mirror.py                 # on a machine with a GPU and torch
    DEV=cpu N=20000 B=500 python3 scripts/eval-mirror.py   # a quick check of the script on a CPU

Measured: the upload of the packed positions and legal masks (pageable and page-locked memory); the whole
scoring pass (unpack, MLP 5 x 512 with batch norm, mask, top-3) as haifu ran it (rows gathered by index), with
rows as views, with batch norm folded into the linear layers, and folded with 1,000 input columns; the first
layer's matrix product with 999 and 1,000 columns; training steps of the MLP and DenseMLP with 999 and 1,000
inputs (anchor_train.py's shapes and batch).
"""
import json, os, time
import torch, torch.nn as nn

dev = os.environ.get('DEV', 'cuda')
N, PACKED = int(os.environ.get('N', 616384)), 125
B = int(os.environ.get('B', 5000))


def sync():
    if dev == 'cuda':
        torch.cuda.synchronize()


def timed(f, reps=5):
    f(); sync()
    ts = []
    for _ in range(reps):
        t = time.perf_counter(); f(); sync(); ts.append(time.perf_counter() - t)
    return sorted(ts)[len(ts) // 2]


g = torch.Generator().manual_seed(0)
packed_cpu = (torch.rand(N, PACKED, generator=g) < 0.3).to(torch.uint8) * torch.randint(0, 256, (N, PACKED), generator=g, dtype=torch.uint8)
packed_cpu[:, -1] &= 0x7f  # feature 999, the packing's spare bit, is always 0
legal_cpu = torch.randint(1, 2**34, (N,), generator=g, dtype=torch.int64)
y_cpu = torch.randint(0, 34, (N,), generator=g, dtype=torch.uint8)
out = {}


def up():
    return packed_cpu.to(dev), legal_cpu.to(dev), y_cpu.to(dev).long()


out['upload_pageable_s'] = timed(up)
if dev == 'cuda':
    pin, pinl = packed_cpu.pin_memory(), legal_cpu.pin_memory()
    out['upload_pinned_s'] = timed(lambda: (pin.to(dev), pinl.to(dev)))
p, l, y = up()
shifts = torch.arange(8, dtype=torch.uint8, device=dev)
kinds = torch.arange(34, device=dev)


def mlp(width_in):
    layers, d = [], width_in
    for _ in range(5):
        layers += [nn.Linear(d, 512), nn.BatchNorm1d(512), nn.ReLU()]; d = 512
    m = nn.Sequential(*layers, nn.Linear(d, 34)).to(dev).eval()
    for mod in m:
        if isinstance(mod, nn.BatchNorm1d):
            mod.running_mean.normal_(); mod.running_var.uniform_(0.5, 2)
    return m


m999 = mlp(999)


def folded(m, width_in):
    ws, mods = [], list(m)
    for i in range(0, 15, 3):
        lin, bn = mods[i], mods[i + 1]
        s = bn.weight / torch.sqrt(bn.running_var + bn.eps)
        w = lin.weight * s[:, None]; b = (lin.bias - bn.running_mean) * s + bn.bias
        if i == 0 and w.shape[1] < width_in:
            w = torch.cat([w, w.new_zeros(w.shape[0], width_in - w.shape[1])], 1)
        ws.append((w.contiguous(), b))
    ws.append((mods[15].weight, mods[15].bias))
    return ws


with torch.no_grad():
    f999, f1000 = folded(m999, 999), folded(m999, 1000)


def run_folded(ws, x):
    for w, b in ws[:-1]:
        x = torch.addmm(b, x, w.t()).relu_()
    return torch.addmm(ws[-1][1], x, ws[-1][0].t())


def unpack(pk, width):
    x = pk.unsqueeze(-1).bitwise_right_shift(shifts).bitwise_and(1).view(pk.shape[0], 8 * PACKED)
    if width == 999:
        x = x.narrow(1, 0, 999)
    return x.float()


def evaluate(form, batch=50000):
    hits = []
    with torch.no_grad():
        for s in range(0, N, batch):
            e = min(s + batch, N)
            if form['rows'] == 'select':
                idx = torch.arange(s, e, device=dev)
                pk, lg, yy = p.index_select(0, idx), l.index_select(0, idx), y.index_select(0, idx)
            else:
                pk, lg, yy = p[s:e], l[s:e], y[s:e]
            x = unpack(pk, form['width'])
            logits = run_folded(form['ws'], x) if 'ws' in form else m999(x)
            legal = lg.unsqueeze(1).bitwise_right_shift(kinds).bitwise_and(1).ne(0)
            logits = logits.float().masked_fill(~legal, -1e9)
            hits.append(logits.topk(3, -1).indices.eq(yy.unsqueeze(1)))
        return torch.cat(hits).cpu()


forms = {
    'current': {'rows': 'select', 'width': 999},
    'narrow_rows': {'rows': 'narrow', 'width': 999},
    'folded': {'rows': 'narrow', 'width': 999, 'ws': f999},
    'folded_1000': {'rows': 'narrow', 'width': 1000, 'ws': f1000},
}
ref = evaluate(forms['current'])
for name, form in forms.items():
    t = timed(lambda: evaluate(form))
    same = bool((evaluate(form) == ref).float().mean() > 0.999)
    out['eval_' + name] = {'score_s': round(t, 4), 'M_per_s': round(N / t / 1e6, 3), 'same_hits': same}

# the first layer alone, ten products per figure (ms per product)
xa = (torch.rand(min(N, 50000), 1000, device=dev) < 0.1).float()
W = torch.randn(512, 1000, device=dev)
x999c, W999 = xa[:, :999].contiguous(), W[:, :999].contiguous()
out['gemm_999_ms'] = timed(lambda: [torch.mm(xa[:, :999].contiguous(), W[:, :999].t()) for _ in range(10)]) * 100
out['gemm_1000_ms'] = timed(lambda: [torch.mm(xa, W.t()) for _ in range(10)]) * 100
out['gemm_999_only_ms'] = timed(lambda: [torch.mm(x999c, W999.t()) for _ in range(10)]) * 100
out['gemm_999_strided_ms'] = timed(lambda: [torch.mm(xa[:, :999], W[:, :999].t()) for _ in range(10)]) * 100


class Dense(nn.Module):
    def __init__(self, d_in):
        super().__init__(); self.blocks = nn.ModuleList(); d = d_in
        for _ in range(5):
            self.blocks.append(nn.Sequential(nn.Linear(d, 256), nn.BatchNorm1d(256), nn.ReLU())); d += 256
        self.out = nn.Linear(d, 34)

    def forward(self, x):
        for b in self.blocks:
            x = torch.cat([x, b(x)], 1)
        return self.out(x)


def train_rate(model, d_in):
    model = model.to(dev).train(); opt = torch.optim.Adam(model.parameters(), 1e-3)
    x = (torch.rand(B, d_in, device=dev) < 0.1).float(); yy = torch.randint(0, 34, (B,), device=dev)

    def step():
        loss = nn.functional.cross_entropy(model(x), yy); opt.zero_grad(set_to_none=True); loss.backward(); opt.step()
    for _ in range(10):
        step()
    sync(); t = time.perf_counter()
    for _ in range(60):
        step()
    sync()
    return round(B * 60 / (time.perf_counter() - t))


for r in range(2):
    for d in (999, 1000):
        out[f'train_mlp_{d}_r{r}'] = train_rate(mlp(d).train(), d)
        out[f'train_dense_{d}_r{r}'] = train_rate(Dense(d), d)
out['device'] = torch.cuda.get_device_name() if dev == 'cuda' else 'cpu'
print(json.dumps(out, indent=1))
