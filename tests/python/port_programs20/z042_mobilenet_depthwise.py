import torch
import torch.nn as nn


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand):
        super().__init__()
        hidden = inp * expand
        self.use_res = stride == 1 and inp == oup
        self.conv = nn.Sequential(
            nn.Conv2d(inp, hidden, 1, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(inplace=True),
            nn.Conv2d(hidden, hidden, 3, stride, 1, groups=hidden, bias=False), nn.BatchNorm2d(hidden), nn.ReLU6(inplace=True),
            nn.Conv2d(hidden, oup, 1, bias=False), nn.BatchNorm2d(oup))

    def forward(self, x):
        return x + self.conv(x) if self.use_res else self.conv(x)


net = nn.Sequential(nn.Conv2d(3, 4, 3, 2, 1, bias=False), nn.BatchNorm2d(4), nn.ReLU6(inplace=True),
                    InvertedResidual(4, 4, 1, 2), InvertedResidual(4, 6, 2, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(6, 3))
det(net, scale=0.4)
x = data(2, 3, 12, 12)
net.train()
out = net(x)
out.sum().backward()
net.eval()
ev = net(x)
report(out=out, ev=ev, g=net[3].conv[3].weight.grad.sum(), rv=net[4].conv[1].running_var)
