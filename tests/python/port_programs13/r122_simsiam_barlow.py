import torch
import torch.nn as nn
import torch.nn.functional as F
proj = det(nn.Sequential(nn.Linear(5, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 6)))
pred = det(nn.Sequential(nn.Linear(6, 3), nn.ReLU(), nn.Linear(3, 6)), 1)
x1, x2 = data(8, 5), data(8, 5, seed=3)
z1, z2 = proj(x1), proj(x2)
p1, p2 = pred(z1), pred(z2)
def D(p, z):
    return -F.cosine_similarity(p, z.detach(), dim=-1).mean()
simsiam = D(p1, z2) / 2 + D(p2, z1) / 2
simsiam.backward(retain_graph=True)
g1 = proj[0].weight.grad.clone()
def off_diagonal(x):
    n, m = x.shape
    return x.flatten()[:-1].view(n - 1, n + 1)[:, 1:].flatten()
bn = nn.BatchNorm1d(6, affine=False)
c = bn(z1).T @ bn(z2) / 8
on = torch.diagonal(c).add_(-1).pow_(2).sum()
off = off_diagonal(c).pow_(2).sum()
barlow = on + 0.005 * off
report(simsiam=simsiam, g1=g1[0], c=c[0, :3], on=on, off=off, barlow=barlow, offd=off_diagonal(torch.arange(9.0).view(3, 3)))
