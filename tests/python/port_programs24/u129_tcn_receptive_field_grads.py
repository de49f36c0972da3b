import torch
import torch.nn as nn

layers = []
for d in (1, 2, 4):
    layers += [nn.ConstantPad1d(((3 - 1) * d, 0), 0.0), nn.Conv1d(1, 1, 3, dilation=d, bias=False)]
net = nn.Sequential(*layers)
with torch.no_grad():
    for m in net:
        if isinstance(m, nn.Conv1d):
            m.weight.fill_(1.0)
x = torch.zeros(1, 1, 32, requires_grad=True)
y = net(x)
y[0, 0, -1].backward()
rf = (x.grad[0, 0] != 0).sum().item()
first = (x.grad[0, 0] != 0).nonzero()[0].item()
report(rf=rf, first=first, grad_tail=x.grad[0, 0, -8:], out_shape=y.shape, count=x.grad.sum().item())
