import math
import torch
import torch.nn as nn

w = torch.empty(30, 50)
nn.init.uniform_(w, a=-0.1, b=0.1)
u = [w.min().item() >= -0.1, w.max().item() <= 0.1]
nn.init.constant_(w, 0.3)
c = w.unique()
nn.init.ones_(w)
o = w.sum()
nn.init.zeros_(w)
z = w.abs().sum()
nn.init.eye_(w)
e = w.trace()
conv = torch.empty(4, 2, 3, 3)
nn.init.dirac_(conv[:2])
d = conv[:2].sum()
gains = [nn.init.calculate_gain('relu'), nn.init.calculate_gain('leaky_relu', 0.2), nn.init.calculate_gain('tanh'),
         nn.init.calculate_gain('sigmoid'), nn.init.calculate_gain('selu'), nn.init.calculate_gain('conv2d')]
big = torch.empty(400, 300)
nn.init.xavier_uniform_(big)
bound_x = math.sqrt(6.0 / (400 + 300))
xu = [big.abs().max().item() <= bound_x, abs(big.std().item() - bound_x / math.sqrt(3)) < 0.02 * bound_x]
nn.init.kaiming_normal_(big, mode='fan_out', nonlinearity='relu')
ks = abs(big.std().item() - math.sqrt(2.0 / 400)) < 0.03 * math.sqrt(2.0 / 400)
nn.init.trunc_normal_(big, std=0.02, a=-0.04, b=0.04)
tr = [big.abs().max().item() <= 0.04, big.mean().abs().item() < 0.001]
nn.init.orthogonal_(big[:50, :60])
q = big[:50, :60]
orth = torch.allclose(q @ q.T, torch.eye(50), atol=1e-4)
lin = nn.Linear(8, 4)
bound = 1 / math.sqrt(8)
lin_ok = [lin.weight.abs().max().item() <= bound, lin.bias.abs().max().item() <= bound]
report(u=u, c=c, o=o, z=z, e=e, d=d, gains=gains, xu=xu, ks=ks, tr=tr, orth=orth, lin_ok=lin_ok)
