import torch
import torch.nn as nn
from torch.nn.utils.parametrizations import weight_norm, spectral_norm, orthogonal

wn = weight_norm(det(nn.Linear(4, 3)), dim=0)
g = wn.parametrizations.weight.original0
v = wn.parametrizations.weight.original1
x = data(2, 4, seed=1)
wn(x).sum().backward()
sn = spectral_norm(det(nn.Linear(4, 3), seed=3), n_power_iterations=5)
sn.eval()
sv = torch.linalg.matrix_norm(sn.weight, ord=2)
orth = orthogonal(det(nn.Linear(3, 3), seed=4))
Q = orth.weight
report(g=g.squeeze(), gg=g.grad.squeeze(), vg=v.grad[0], w=wn.weight, sv=sv, qq=Q @ Q.T, keys=sorted(wn.state_dict().keys()))
# TOL 1e-3
