import torch
import torch.nn as nn


class Bottleneck(nn.Module):
    expansion = 2

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, planes * self.expansion, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(planes * self.expansion)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample

    def forward(self, x):
        identity = x
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return self.relu(out)


def make(zero_init_residual=True):
    ds = nn.Sequential(nn.Conv2d(4, 8, 1, 2, bias=False), nn.BatchNorm2d(8))
    net = nn.Sequential(nn.Conv2d(3, 4, 3, padding=1, bias=False), nn.BatchNorm2d(4), nn.ReLU(inplace=True),
                        Bottleneck(4, 4, 2, ds), Bottleneck(8, 4), nn.AdaptiveAvgPool2d((1, 1)), nn.Flatten(), nn.Linear(8, 3))
    for m in net.modules():
        if isinstance(m, nn.Conv2d):
            nn.init.kaiming_normal_(m.weight, mode="fan_out", nonlinearity="relu")
        elif isinstance(m, (nn.BatchNorm2d, nn.GroupNorm)):
            nn.init.constant_(m.weight, 1)
            nn.init.constant_(m.bias, 0)
    if zero_init_residual:
        for m in net.modules():
            if isinstance(m, Bottleneck) and m.bn3.weight is not None:
                nn.init.constant_(m.bn3.weight, 0)
    return net


net = make()
bn3_zero = [m.bn3.weight.abs().sum().item() for m in net.modules() if isinstance(m, Bottleneck)]
conv_std_ok = abs(net[0].weight.std().item() - (2.0 / (4 * 9)) ** 0.5) < 0.2
det(net, scale=0.2)
x = data(2, 3, 8, 8)
net.train()
y = net(x)
y.logsumexp(1).sum().backward()
n_bn = sum(isinstance(m, nn.BatchNorm2d) for m in net.modules())
decay, no_decay = [], []
for n, p in net.named_parameters():
    (no_decay if p.ndim <= 1 else decay).append(n)
report(bn3_zero=bn3_zero, conv_std_ok=conv_std_ok, y=y, n_bn=n_bn, nd=len(decay), nnd=len(no_decay),
       g=net[3].conv2.weight.grad.abs().sum(), rm=net[3].bn1.running_var)
