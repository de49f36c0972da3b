import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import orthogonal, weight_norm, spectral_norm

lin = orthogonal(det(nn.Linear(4, 4), seed=1))
Q = lin.weight
ortho = torch.dist(Q.T @ Q, torch.eye(4)) < 1e-4
lin2 = weight_norm(det(nn.Linear(3, 5), seed=2))
g = lin2.parametrizations.weight.original0
v = lin2.parametrizations.weight.original1
recon = torch.allclose(lin2.weight, g * v / v.norm(dim=1, keepdim=True), atol=1e-6)
x = data(4, 3, seed=3)
opt = torch.optim.SGD(lin2.parameters(), lr=0.1)
for _ in range(2):
    opt.zero_grad()
    lin2(x).pow(2).mean().backward()
    opt.step()
report(ortho=bool(ortho), g_shape=g.shape, v_shape=v.shape, recon=recon, g=g, w=lin2.weight,
       names=sorted(n for n, _ in lin2.named_parameters()))
