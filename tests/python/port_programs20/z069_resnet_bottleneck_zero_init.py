import torch
import torch.nn as nn


class Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, planes * 4, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(planes * 4)
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


def make_layer(inplanes, planes, blocks, stride):
    down = nn.Sequential(nn.Conv2d(inplanes, planes * 4, 1, stride, bias=False), nn.BatchNorm2d(planes * 4))
    layers = [Bottleneck(inplanes, planes, stride, down)]
    for _ in range(1, blocks):
        layers.append(Bottleneck(planes * 4, planes))
    return nn.Sequential(*layers)


net = nn.Sequential(nn.Conv2d(3, 8, 7, 2, 3, bias=False), nn.BatchNorm2d(8), nn.ReLU(inplace=True), nn.MaxPool2d(3, 2, 1),
                    make_layer(8, 2, 2, 1), make_layer(8, 4, 1, 2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
det(net, scale=0.3)
for m in net.modules():
    if isinstance(m, Bottleneck):
        nn.init.constant_(m.bn3.weight, 0)
x = data(2, 3, 16, 16)
opt = torch.optim.SGD(net.parameters(), lr=0.1, momentum=0.9, weight_decay=1e-4)
for _ in range(2):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(net(x), torch.tensor([1, 7]))
    loss.backward()
    opt.step()
net.eval()
with torch.no_grad():
    probs = net(x).softmax(-1)
top = probs.topk(3, dim=1)
report(loss=loss.item(), probs=probs, top=top.indices, bn3=net[4][0].bn3.weight, n=sum(p.numel() for p in net.parameters()))
