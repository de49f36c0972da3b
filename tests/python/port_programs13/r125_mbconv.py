import torch
import torch.nn as nn
class SqueezeExcite(nn.Module):
    def __init__(self, c, rd):
        super().__init__()
        self.conv_reduce = nn.Conv2d(c, rd, 1)
        self.act1 = nn.SiLU(inplace=True)
        self.conv_expand = nn.Conv2d(rd, c, 1)
    def forward(self, x):
        s = x.mean((2, 3), keepdim=True)
        return x * self.conv_expand(self.act1(self.conv_reduce(s))).sigmoid()
class MBConv(nn.Module):
    def __init__(self, i, o, expand=4, stride=1):
        super().__init__()
        mid = i * expand
        self.use_res = stride == 1 and i == o
        self.block = nn.Sequential(nn.Conv2d(i, mid, 1, bias=False), nn.BatchNorm2d(mid, eps=1e-3, momentum=0.01), nn.SiLU(),
                                   nn.Conv2d(mid, mid, 3, stride, 1, groups=mid, bias=False), nn.BatchNorm2d(mid, eps=1e-3, momentum=0.01), nn.SiLU(),
                                   SqueezeExcite(mid, max(1, i // 4)), nn.Conv2d(mid, o, 1, bias=False), nn.BatchNorm2d(o, eps=1e-3, momentum=0.01))
    def forward(self, x):
        out = self.block(x)
        return x + out if self.use_res else out
net = det(nn.Sequential(MBConv(4, 4), MBConv(4, 6, stride=2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(6, 3)), 0, 0.2)
x = data(3, 4, 8, 8)
net.train()
net[4].p = 0.0
out = net(x)
nn.functional.cross_entropy(out, torch.tensor([0, 1, 2])).backward()
net.eval()
e = net(x)
report(out=out, e=e, rm=net[0].block[1].running_mean[:4], g=net[1].block[6].conv_reduce.weight.grad.flatten()[:4])
