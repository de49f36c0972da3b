import torch
from torch import nn


class ModalModule(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        if self.training:
            return x + 1.
        else:
            return x - 1.


m = ModalModule()
x = torch.randn(4)
a = m(torch.ones(2))
m.eval()
b = m(torch.ones(2))
net = nn.Module()
net.register_module('l1', nn.Linear(2, 3))
net.add_module('act', nn.Tanh())
net.register_parameter('scale', nn.Parameter(torch.tensor(2.0)))
net.register_buffer('offset', torch.tensor(0.5))
net.train(False)
modes = [mod.training for mod in net.modules()]
net.train()
modes2 = [mod.training for mod in net.modules()]
p_names = [n for n, _ in net.named_parameters()]
try:
    net.register_parameter('bad', torch.ones(2))
    err = None
except TypeError as e:
    err = "cannot assign" in str(e)
report(a=a, b=b, modes=modes, modes2=modes2, p_names=p_names, err=err, n_mods=len(list(net.modules())),
       sd=list(net.state_dict().keys()))
