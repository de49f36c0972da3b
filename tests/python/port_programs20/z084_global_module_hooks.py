import torch
import torch.nn as nn
from torch.nn.modules.module import register_module_forward_hook, register_module_forward_pre_hook

seen = []
h = register_module_forward_hook(lambda m, i, o: seen.append(type(m).__name__))
net = det(nn.Sequential(nn.Linear(2, 2), nn.ReLU()))
net(data(1, 2))
h.remove()
net(data(1, 2))
pre = []
h2 = register_module_forward_pre_hook(lambda m, i: pre.append(len(i)))
net[0](data(1, 2))
h2.remove()
bp = []
h3 = net[0].register_full_backward_pre_hook(lambda m, go: bp.append(go[0].shape) or (go[0] * 2,))
x = data(3, 2)
net(x).sum().backward()
h3.remove()
kw = []


class K(nn.Module):
    def forward(self, x, scale=1.0):
        return x * scale


k = K()
k.register_forward_pre_hook(lambda m, args, kwargs: (args, {"scale": kwargs.get("scale", 1.0) * 10}), with_kwargs=True)
report(seen=seen, pre=pre, bp=[list(s) for s in bp], g=net[0].weight.grad, k=k(torch.ones(2), scale=2.0))
