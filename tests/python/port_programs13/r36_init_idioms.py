import math
import torch
import torch.nn as nn
def init_weights(m):
    if isinstance(m, nn.Conv2d):
        nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
        if m.bias is not None: nn.init.zeros_(m.bias)
    elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
        nn.init.ones_(m.weight); nn.init.constant_(m.bias, 0)
    elif isinstance(m, nn.Linear):
        nn.init.trunc_normal_(m.weight, std=0.02, a=-0.04, b=0.04)
        nn.init.constant_(m.bias, 0.01)
net = nn.Sequential(nn.Conv2d(3, 64, 3), nn.BatchNorm2d(64), nn.ReLU(), nn.Flatten(), nn.Linear(64, 200), nn.Linear(200, 10))
net.apply(init_weights)
w = net[0].weight
gains = [nn.init.calculate_gain(n) for n in ("linear", "relu", "tanh", "sigmoid", "selu")] + [nn.init.calculate_gain("leaky_relu", 0.2)]
ortho = torch.empty(6, 4); nn.init.orthogonal_(ortho, gain=2.0)
eye = torch.empty(3, 5); nn.init.eye_(eye)
dirac = torch.empty(2, 2, 3, 3); nn.init.dirac_(dirac)
xu = torch.empty(300, 200); nn.init.xavier_uniform_(xu, gain=nn.init.calculate_gain("tanh"))
bound = nn.init.calculate_gain("tanh") * math.sqrt(6 / 500)
ku = torch.empty(100, 50); nn.init.kaiming_uniform_(ku, a=math.sqrt(5))
sp = torch.empty(10, 8); nn.init.sparse_(sp, sparsity=0.5)
u = torch.empty(1000).uniform_(-2, 3)
n = torch.empty(1000).normal_(1.0, 0.1)
report(std_ok=abs(w.std().item() - math.sqrt(2 / (64 * 9))) < 0.01, bn=net[1].weight[:3], lin_in=net[4].weight.abs().max().item() <= 0.04,
       bias=net[4].bias[:2], gains=gains, oo=(ortho.t() @ ortho), eye=eye, dirac=dirac[1, :, 1], xu_ok=xu.abs().max().item() <= bound,
       ku_ok=ku.abs().max().item() <= 1 / math.sqrt(50), zeros_per_col=(sp == 0).sum(0), u_ok=[u.min().item() >= -2, u.max().item() < 3], n_ok=abs(n.mean().item() - 1) < 0.02)
# TOL 1e-5
