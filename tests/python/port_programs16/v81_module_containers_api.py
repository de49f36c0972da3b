import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.heads = nn.ModuleDict({"cls": nn.Linear(4, 3), "reg": nn.Linear(4, 1)})
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(1) * i) for i in range(3)])
        self.extra = nn.ParameterDict({"temp": nn.Parameter(torch.full((1,), 2.0))})
        self.shared = nn.Linear(4, 4)
        self.blocks = nn.Sequential(self.shared, nn.ReLU(), self.shared)

    def forward(self, x):
        h = self.blocks(x) * self.scales[1]
        return {k: m(h) / self.extra["temp"] for k, m in self.heads.items()}


net = det(Net())
names = [n for n, _ in net.named_parameters()]
mods = [n for n, _ in net.named_modules()]
mods_dup = [n for n, _ in net.named_modules(remove_duplicate=False)]
out = net(data(2, 4))
net.heads["aux"] = nn.Identity()
net.scales.append(nn.Parameter(torch.zeros(2)))
del net.heads["reg"]
seq = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Tanh())
seq.insert(1, nn.Dropout(0.1))
seq.append(nn.Sigmoid())
seq.extend([nn.Identity()])
report(names=names, mods=mods, ndup=len(mods_dup), out_cls=out["cls"].detach(), keys=list(net.heads.keys()), nscales=len(net.scales),
       seq=[type(m).__name__ for m in seq], sliced=[type(m).__name__ for m in seq[1:3]], pd=list(net.extra.keys()),
       nparams=sum(p.numel() for p in net.parameters()), children=[n for n, _ in net.named_children()])
