import math
import torch
import torch.nn as nn

torch.manual_seed(0)
gains = [nn.init.calculate_gain(n) for n in ["linear", "relu", "tanh", "sigmoid", "selu"]] + [nn.init.calculate_gain("leaky_relu", 0.2)]
w = torch.empty(200, 300)
stats = {}
nn.init.xavier_uniform_(w, gain=gains[1])
stats["xu"] = [w.abs().max().item() <= gains[1] * math.sqrt(6 / 500), abs(w.std().item() - gains[1] * math.sqrt(2 / 500)) < 0.01]
nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
stats["kn"] = abs(w.std().item() - math.sqrt(2 / 200)) < 0.005
nn.init.trunc_normal_(w, std=0.02, a=-0.04, b=0.04)
stats["tn"] = [w.min().item() >= -0.04, w.max().item() <= 0.04]
q = torch.empty(4, 6)
nn.init.orthogonal_(q)
stats["orth"] = torch.allclose(q @ q.T, torch.eye(4), atol=1e-5)
e = torch.empty(3, 5)
nn.init.eye_(e)
d = torch.empty(2, 2, 3, 3)
nn.init.dirac_(d)
c = nn.init.constant_(torch.empty(2), 0.3)
s = torch.empty(10, 10)
nn.init.sparse_(s, sparsity=0.3)
z = nn.init.zeros_(torch.empty(3))
fan = nn.init._calculate_fan_in_and_fan_out(torch.empty(8, 4, 3, 3))
report(gains=gains, stats=stats, e=e, dirac=d[:, :, 1, 1], dirac_sum=d.sum().item(), c=c, zeros_per_col=(s == 0).sum(0), z=z, fan=list(fan))
