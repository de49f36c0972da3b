import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d=8):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.attn = nn.MultiheadAttention(d, 2, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(d, 16), nn.GELU(approximate="tanh"), nn.Linear(16, d))

    def forward(self, x, mem):
        kv = x if mem is None else torch.cat([mem, x], 1)
        T, S = x.shape[1], kv.shape[1]
        mask = torch.ones(T, S, dtype=torch.bool).triu(S - T + 1)
        h = self.ln(x)
        hk = self.ln(kv)
        a, _ = self.attn(h, hk, hk, attn_mask=mask, need_weights=False)
        x = x + a
        return x + self.mlp(x), kv


blocks = nn.ModuleList([Block() for _ in range(2)])
det(blocks)
x = data(1, 4, 8, seed=6)
full = x
for b in blocks:
    full, _ = b(full, None)
mems = [None, None]
outs = []
for t in range(4):
    h = x[:, t:t + 1]
    for i, b in enumerate(blocks):
        inp = h
        h, _ = b(h, mems[i])
        mems[i] = inp if mems[i] is None else torch.cat([mems[i], inp], 1)
    outs.append(h)
inc = torch.cat(outs, 1)
report(full=full, close=torch.allclose(full, inc, atol=1e-5), mem_len=mems[0].shape[1])
