import math
import torch
import torch.nn as nn
res = {}
res["gain"] = [nn.init.calculate_gain("relu"), nn.init.calculate_gain("leaky_relu", 0.2), nn.init.calculate_gain("tanh"), nn.init.calculate_gain("selu"), nn.init.calculate_gain("conv2d")]
w = torch.empty(3, 5)
nn.init.constant_(w, 0.3); res["const"] = w.sum()
nn.init.eye_(w); res["eye"] = w
c = torch.empty(4, 2, 3, 3); nn.init.dirac_(c, groups=2); res["dirac"] = c.sum(dim=(2, 3))
nn.init.zeros_(w); nn.init.ones_(w[0]); res["zo"] = w
torch.manual_seed(0)
q = torch.empty(4, 6); nn.init.orthogonal_(q, gain=2.0); res["orth"] = torch.allclose(q @ q.T, 4 * torch.eye(4), atol=1e-4)
k = torch.empty(200, 100); nn.init.kaiming_uniform_(k, a=math.sqrt(5)); res["ku_bound"] = (k.abs().max() <= 1.0 / math.sqrt(100) * math.sqrt(3) * math.sqrt(2 / 6) + 1e-6).item()
x = torch.empty(300, 200); nn.init.xavier_normal_(x, gain=1.0); res["xn_std"] = abs(x.std().item() - math.sqrt(2 / 500)) < 0.002
t = torch.empty(1000); nn.init.trunc_normal_(t, mean=0.0, std=1.0, a=-0.5, b=0.5); res["tn"] = (t.abs().max() <= 0.5).item()
u = torch.empty(1000); nn.init.uniform_(u, -0.1, 0.1); res["u"] = (u.abs().max() <= 0.1).item()
s = torch.empty(50, 50); nn.init.sparse_(s, sparsity=0.2); res["sparse"] = int((s == 0).sum(0).min())
fan = nn.init._calculate_fan_in_and_fan_out(torch.empty(8, 4, 3, 3)); res["fan"] = list(fan)
def init_weights(m):
    if isinstance(m, nn.Linear):
        torch.nn.init.xavier_uniform_(m.weight); m.bias.data.fill_(0.01)
    elif isinstance(m, nn.Conv2d):
        nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
        if m.bias is not None: nn.init.constant_(m.bias, 0)
    elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
        nn.init.constant_(m.weight, 1); nn.init.constant_(m.bias, 0)
net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.Flatten(), nn.Linear(8, 3))
net.apply(init_weights)
res["applied"] = [net[3].bias, net[1].weight, net[0].bias]
seq = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
seq.append(nn.Sigmoid()); seq.insert(1, nn.Dropout(0.0)); seq.extend([nn.Identity()])
res["seq"] = [len(seq), type(seq[1]).__name__, len(seq[1:3]), type(seq[-1]).__name__]
del seq[-1]
pl = nn.ParameterList([nn.Parameter(torch.ones(2)), nn.Parameter(torch.zeros(3))])
pd = nn.ParameterDict({"a": nn.Parameter(torch.ones(1))}); pd["b"] = nn.Parameter(torch.zeros(2))
md = nn.ModuleDict({"x": nn.Linear(1, 1)}); md.update({"y": nn.ReLU()})
class Host(nn.Module):
    def __init__(self):
        super().__init__(); self.pl = pl; self.pd = pd; self.md = md; self.seq = seq
        self.add_module("extra", nn.Tanh()); self.register_module("extra2", nn.ELU())
        self.register_parameter("scale", nn.Parameter(torch.tensor(2.0))); self.register_buffer("buf", None)
host = Host()
res["names"] = [n for n, _ in host.named_parameters()]
res["mods"] = [n for n, _ in host.named_modules()][:8]
res["children"] = [type(m).__name__ for m in host.children()]
res["sub"] = [type(host.get_submodule("seq.0")).__name__, host.get_parameter("pd.a").shape, "buf" in dict(host.named_buffers()), len(list(host.parameters(recurse=False)))]
host.requires_grad_(False); host.seq[0].requires_grad_(True)
res["trainable"] = [n for n, p in host.named_parameters() if p.requires_grad]
host.train(False); res["training"] = [host.training, host.seq[0].training]
res["md"] = list(md.keys()), len(pd), list(pd.keys())
report(**res)
