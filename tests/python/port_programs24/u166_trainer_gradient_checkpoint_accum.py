import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(6, 6), nn.Tanh(), nn.Linear(6, 6))

    def forward(self, x):
        return x + self.f(x)


class Net(nn.Module):
    def __init__(self, use_ckpt):
        super().__init__()
        self.blocks = nn.ModuleList(Block() for _ in range(3))
        self.use_ckpt = use_ckpt

    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False) if self.use_ckpt else b(x)
        return x.sum(-1)


a, b = det(Net(True)), det(Net(False))
x, y = data(8, 6), data(8, seed=4)
for m in (a, b):
    for xb, yb in zip(x.chunk(2), y.chunk(2)):
        (nn.functional.mse_loss(m(xb), yb) / 2).backward()
same = all(torch.allclose(p.grad, q.grad, atol=1e-6) for p, q in zip(a.parameters(), b.parameters()))
report(same=same, g=a.blocks[0].f[0].weight.grad[0])
