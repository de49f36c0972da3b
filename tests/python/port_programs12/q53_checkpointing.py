import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
class Block(nn.Module):
    def __init__(self):
        super().__init__(); self.f = nn.Sequential(nn.Linear(6, 12), nn.GELU(), nn.Linear(12, 6)); self.n = nn.LayerNorm(6)
    def forward(self, x):
        return x + self.f(self.n(x))
class Net(nn.Module):
    def __init__(self, ckpt):
        super().__init__(); self.blocks = nn.ModuleList([Block() for _ in range(3)]); self.ckpt = ckpt
    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False) if self.ckpt else b(x)
        return x
x = data(4, 6)
res = {}
for ck in (False, True):
    m = det(Net(ck))
    out = m(x); out.pow(2).sum().backward()
    res[str(ck)] = [out, m.blocks[0].f[0].weight.grad[0]]
seq = det(nn.Sequential(*[nn.Sequential(nn.Linear(6, 6), nn.Tanh()) for _ in range(4)]))
xi = x.clone().requires_grad_()
o = checkpoint_sequential(seq, 2, xi, use_reentrant=False)
o.sum().backward()
res["seq"] = [o, xi.grad]
def fn(a, b, scale=1.0):
    return (a * b).sin() * scale
a = data(3, seed=3).requires_grad_(); b = data(3, seed=4).requires_grad_()
y = checkpoint(fn, a, b, scale=2.0, use_reentrant=False); y.sum().backward()
res["kw"] = [y, a.grad, b.grad]
report(**res)
