import math
import torch
import torch.nn as nn
torch.manual_seed(0)
w = torch.empty(64, 32)
nn.init.xavier_uniform_(w, gain=nn.init.calculate_gain("relu"))
bound = math.sqrt(2.0) * math.sqrt(6.0 / (64 + 32))
k = torch.empty(128, 64); nn.init.kaiming_uniform_(k, a=math.sqrt(5))
kb = 1 / math.sqrt(64)
kn = torch.empty(200, 100); nn.init.kaiming_normal_(kn, mode="fan_in", nonlinearity="relu")
o = torch.empty(6, 10); nn.init.orthogonal_(o)
e = torch.empty(3, 4); nn.init.eye_(e)
d = torch.empty(4, 2, 3, 3); nn.init.dirac_(d)
c = torch.empty(5); nn.init.constant_(c, 0.3); z = torch.empty(2, 2); nn.init.zeros_(z); on = torch.empty(2); nn.init.ones_(on)
tn = torch.empty(1000); nn.init.trunc_normal_(tn, std=0.02, a=-0.04, b=0.04)
un = torch.empty(1000); nn.init.uniform_(un, -0.1, 0.1)
nn_ = torch.empty(4000); nn.init.normal_(nn_, mean=1.0, std=0.5)
lin = nn.Linear(50, 20)
lb = 1 / math.sqrt(50)
conv = nn.Conv2d(3, 8, 3)
gains = [nn.init.calculate_gain(n) for n in ("linear", "conv2d", "sigmoid", "tanh", "relu", "selu")] + [nn.init.calculate_gain("leaky_relu", 0.2)]
def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_normal_(m.weight)
        m.bias.data.fill_(0.01)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)); net.apply(init_weights)
report(xav=bool(w.abs().max() <= bound), xav_spread=bool(w.abs().max() > 0.9 * bound), kb=bool(k.abs().max() <= kb),
       kn_std=round(kn.std().item() / math.sqrt(2 / 100), 1), orth=torch.allclose(o @ o.t(), torch.eye(6), atol=1e-5), e=e, d=d.sum((2, 3)),
       c=c, z=z, on=on, tn=bool(tn.abs().max() <= 0.04), un=bool(un.abs().max() <= 0.1), nmean=round(nn_.mean().item(), 1),
       lin=bool(lin.weight.abs().max() <= lb and lin.bias.abs().max() <= lb), conv=list(conv.weight.shape), gains=gains,
       bias=net[0].bias, reqg=net[0].weight.requires_grad, leaf=net[0].weight.is_leaf)
