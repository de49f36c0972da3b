import math
import torch
import torch.nn as nn

torch.manual_seed(0)
w = torch.empty(200, 200)
nn.init.trunc_normal_(w, mean=0.0, std=0.02, a=-0.04, b=0.04)
u = torch.empty(100, 50)
nn.init.kaiming_uniform_(u, a=math.sqrt(5))
n = torch.empty(64, 32, 3, 3)
nn.init.kaiming_normal_(n, mode="fan_out", nonlinearity="relu")
x = torch.empty(30, 40)
nn.init.xavier_uniform_(x, gain=nn.init.calculate_gain("tanh"))
o = torch.empty(6, 4)
nn.init.orthogonal_(o)
c = torch.empty(5)
nn.init.constant_(c, 0.3)
report(in_range=bool((w.abs() <= 0.04).all()), std_ok=0.015 < w.std().item() < 0.02, u_bound=bool(u.abs().max() <= 1 / math.sqrt(50)),
       n_std_ok=abs(n.std().item() - math.sqrt(2 / (32 * 9)) * math.sqrt(32 / 64) * math.sqrt(2) / math.sqrt(2)) < 0.2,
       x_bound=bool(x.abs().max() <= 5 / 3 * math.sqrt(6 / 70)), ortho=bool(torch.allclose(o.t() @ o, torch.eye(4), atol=1e-5)),
       c=c, gains=[nn.init.calculate_gain(k) for k in ("linear", "relu", "tanh", "sigmoid", "selu")],
       leaky=nn.init.calculate_gain("leaky_relu", 0.2), ones=nn.init.ones_(torch.empty(2)), eye=nn.init.eye_(torch.empty(2, 3)))
