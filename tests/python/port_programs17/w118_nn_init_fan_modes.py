import math
import torch
import torch.nn as nn

w = torch.empty(8, 4, 3, 3)
fi, fo = nn.init._calculate_fan_in_and_fan_out(w)
gains = [nn.init.calculate_gain(n) for n in ("linear", "relu", "tanh", "sigmoid", "selu")] + [nn.init.calculate_gain("leaky_relu", 0.2)]
torch.manual_seed(0)
nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
std_fo = math.sqrt(2.0 / fo)
u = torch.empty(200, 100)
nn.init.xavier_uniform_(u, gain=2.0)
bound = 2.0 * math.sqrt(6.0 / 300)
t = torch.empty(1000)
nn.init.trunc_normal_(t, std=0.02, a=-0.04, b=0.04)
e = torch.empty(3, 5)
nn.init.eye_(e)
d = torch.empty(2, 2, 3)
nn.init.dirac_(d)
c = torch.empty(2, 3)
nn.init.constant_(c, 0.3)
o = torch.empty(4, 6)
nn.init.orthogonal_(o)
report(fi=fi, fo=fo, gains=gains, inb=bool(u.abs().max() <= bound), tb=bool(t.abs().max() <= 0.04), e=e, d=d, c=c, oo=o @ o.T,
       std_ok=abs(w.std().item() - std_fo) < 0.1)
