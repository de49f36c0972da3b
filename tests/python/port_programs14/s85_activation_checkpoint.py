import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

blocks = nn.ModuleList([nn.Sequential(nn.Linear(4, 4), nn.GELU()) for _ in range(3)])
det(blocks)
x = data(2, 4).requires_grad_()
h = x
for b in blocks:
    h = checkpoint(b, h, use_reentrant=False)
h.sum().backward()
g_ck = x.grad.clone()
wg_ck = blocks[0][0].weight.grad.clone()
x.grad = None
blocks.zero_grad()
h2 = x
for b in blocks:
    h2 = b(h2)
h2.sum().backward()
seq = nn.Sequential(*[nn.Linear(4, 4) for _ in range(4)])
det(seq, 3)
out = checkpoint_sequential(seq, 2, data(3, 4), use_reentrant=False)
report(same=torch.allclose(g_ck, x.grad), wsame=torch.allclose(wg_ck, blocks[0][0].weight.grad), h=h, out=out.sum())
