import torch
import torch.nn as nn
from torch.utils.checkpoint import checkpoint, checkpoint_sequential

seq = det(nn.Sequential(nn.Linear(4, 4), nn.GELU(), nn.Linear(4, 4), nn.Tanh(), nn.Linear(4, 1)))
x = data(3, 4, seed=1).requires_grad_()
a = checkpoint(seq, x, use_reentrant=False)
a.sum().backward()
g1 = [p.grad.clone() for p in seq.parameters()]
xg1 = x.grad.clone()
seq.zero_grad()
x.grad = None
b = checkpoint_sequential(seq, 2, x, use_reentrant=False)
b.sum().backward()
g2 = [p.grad.clone() for p in seq.parameters()]
seq.zero_grad()
c = seq(x)
c.sum().backward()
report(a=a, same=all(torch.allclose(u, v) for u, v in zip(g1, g2)), same2=all(torch.allclose(u, p.grad) for u, p in zip(g1, seq.parameters())),
       xg=xg1)
