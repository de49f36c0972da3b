import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential


class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.ff = nn.Sequential(nn.Linear(d, 2 * d), nn.GELU(), nn.Linear(2 * d, d))
        self.norm = nn.LayerNorm(d)

    def forward(self, x):
        return x + self.ff(self.norm(x))


class Deep(nn.Module):
    def __init__(self, d=6, n=3, use_ckpt=False):
        super().__init__()
        self.blocks = nn.ModuleList(Block(d) for _ in range(n))
        self.use_ckpt = use_ckpt

    def forward(self, x):
        for b in self.blocks:
            x = checkpoint(b, x, use_reentrant=False) if self.use_ckpt else b(x)
        return x


x = data(4, 6).requires_grad_()
plain = det(Deep())
ck = det(Deep(use_ckpt=True))
y1 = plain(x)
y1.pow(2).sum().backward()
g1 = x.grad.clone()
x.grad = None
y2 = ck(x)
y2.pow(2).sum().backward()
seq = det(nn.Sequential(*[Block(6) for _ in range(4)]))
x3 = data(4, 6).requires_grad_()
y3 = checkpoint_sequential(seq, 2, x3, use_reentrant=False)
y3.sum().backward()
report(same_out=torch.allclose(y1, y2), same_grad=torch.allclose(g1, x.grad, atol=1e-6),
       wgrad_same=torch.allclose(plain.blocks[0].ff[0].weight.grad, ck.blocks[0].ff[0].weight.grad, atol=1e-6),
       y3=y3[0], g3=x3.grad[0])
