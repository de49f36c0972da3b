import math
import torch
import torch.nn as nn

g = torch.Generator().manual_seed(0)
res = {}
w = torch.empty(64, 32)
nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("relu"))
res["xu_bound"] = w.abs().max().item() <= math.sqrt(2) * math.sqrt(6 / 96) + 1e-6
nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="leaky_relu", a=0.1)
res["kn_std"] = abs(w.std().item() - nn.init.calculate_gain("leaky_relu", 0.1) / math.sqrt(64)) < 0.03
nn.init.trunc_normal_(w, mean=0.0, std=1.0, a=-0.5, b=0.5)
res["trunc"] = (w.abs() <= 0.5).all().item()
nn.init.orthogonal_(w)
res["ortho"] = torch.allclose(w.t() @ w, torch.eye(32), atol=1e-4)
nn.init.sparse_(w, sparsity=0.25)
res["sparse_col_zeros"] = (w == 0).sum(0).tolist()[:3]
e = torch.empty(3, 4)
nn.init.eye_(e)
res["eye"] = e
c = torch.empty(4, 2, 3)
nn.init.dirac_(c)
res["dirac"] = c
nn.init.constant_(e, 0.3)
res["const"] = e.sum()
nn.init.zeros_(e)
nn.init.ones_(c)
res["gains"] = [nn.init.calculate_gain(n) for n in ("linear", "sigmoid", "tanh", "relu", "selu")]
res["fan"] = nn.init._calculate_fan_in_and_fan_out(torch.empty(8, 4, 3, 3))
lin = nn.Linear(10, 5)
bound = 1 / math.sqrt(10)
res["linear_default"] = (lin.bias.abs() <= bound).all().item() and (lin.weight.abs() <= bound).all().item()


def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.normal_(m.weight, 0.0, 0.02)
        torch.nn.init.zeros_(m.bias)
    elif isinstance(m, nn.LayerNorm):
        nn.init.ones_(m.weight)


net = nn.Sequential(nn.Linear(4, 4), nn.LayerNorm(4), nn.Linear(4, 1))
net.apply(init_weights)
res["bias_zero"] = net[2].bias.item() == 0.0
res["uniform_range"] = bool(((nn.init.uniform_(torch.empty(100), -2, -1, generator=g) >= -2)).all())
report(**res)
