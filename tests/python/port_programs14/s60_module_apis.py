import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.feat = nn.Sequential(nn.Linear(3, 4), nn.ReLU())
        self.heads = nn.ModuleDict({"a": nn.Linear(4, 1), "b": nn.Linear(4, 2)})
        self.scales = nn.ParameterList([nn.Parameter(torch.ones(1)), nn.Parameter(torch.full((2,), 2.0))])
        self.register_buffer("count", torch.zeros((), dtype=torch.long))
        self.extra = nn.ParameterDict({"bias": nn.Parameter(torch.zeros(2))})

    def forward(self, x):
        self.count += 1
        h = self.feat(x)
        return self.heads["a"](h) * self.scales[0], self.heads["b"](h) * self.scales[1] + self.extra["bias"]


net = det(Net())
a, b = net(data(2, 3))
net.train(False)
names = [n for n, _ in net.named_parameters()]
mods = [n for n, _ in net.named_modules()]
nb = [n for n, _ in net.named_buffers()]
net.requires_grad_(False)
net.zero_grad()
n2 = net.float()
net.double()
dt = net.feat[0].weight.dtype
net.to(torch.float32)
report(a=a, b=b, names=names, mods=mods, nb=nb, count=net.count, training=net.training, sub_training=net.feat[0].training,
       rg=any(p.requires_grad for p in net.parameters()), dt=dt, same=n2 is net, get=net.get_submodule("heads.b").out_features,
       getp=net.get_parameter("scales.1").shape, len=len(net.heads), keys=list(net.heads.keys()))
