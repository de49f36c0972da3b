import torch
import torch.nn as nn
import torch.utils.checkpoint as cp


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ln = nn.LayerNorm(d)
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))

    def forward(self, x):
        return x + self.ff(self.ln(x))


class Model(nn.Module):
    def __init__(self, gc):
        super().__init__()
        self.blocks = nn.ModuleList([Block(4) for _ in range(3)])
        self.gradient_checkpointing = gc

    def forward(self, x):
        for b in self.blocks:
            if self.gradient_checkpointing and self.training:
                x = cp.checkpoint(b, x, use_reentrant=False)
            else:
                x = b(x)
        return x


a, b = det(Model(False)), det(Model(True))
x = data(2, 3, 4, seed=1)
a(x).pow(2).sum().backward()
b(x).pow(2).sum().backward()
report(same=all(torch.allclose(p.grad, q.grad, atol=1e-6) for p, q in zip(a.parameters(), b.parameters())),
       g=b.blocks[0].ff[0].weight.grad[0])
