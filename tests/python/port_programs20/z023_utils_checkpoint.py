import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Linear(4, 8), nn.GELU(), nn.Linear(8, 4))

    def forward(self, x):
        return x + self.f(x)


class Net(nn.Module):
    def __init__(self, use_ckpt):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(3)])
        self.use_ckpt = use_ckpt

    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False) if self.use_ckpt else b(x)
        return x


x = data(3, 4)
a = det(Net(True))
b = det(Net(False))
la = a(x).pow(2).sum()
la.backward()
lb = b(x).pow(2).sum()
lb.backward()
seq = det(nn.Sequential(*[nn.Linear(4, 4) for _ in range(4)]))
xi = x.clone().requires_grad_(True)
out = checkpoint_sequential(seq, 2, xi, use_reentrant=False)
out.sum().backward()


def fn(u, v, scale=2.0):
    return (u * v).sin() * scale


u = x.clone().requires_grad_(True)
r = checkpoint(fn, u, x, use_reentrant=False, scale=3.0)
r.sum().backward()
report(la=la, same=torch.allclose(a.blocks[0].f[0].weight.grad, b.blocks[0].f[0].weight.grad), g=a.blocks[2].f[2].weight.grad,
       out=out, xg=xi.grad, ug=u.grad)
