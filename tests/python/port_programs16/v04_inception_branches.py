import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicConv2d(nn.Module):
    def __init__(self, cin, cout, **kwargs):
        super().__init__()
        self.conv = nn.Conv2d(cin, cout, bias=False, **kwargs)
        self.bn = nn.BatchNorm2d(cout, eps=0.001)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)), inplace=True)


class InceptionA(nn.Module):
    def __init__(self, cin, pool_features):
        super().__init__()
        self.b1 = BasicConv2d(cin, 4, kernel_size=1)
        self.b5_1 = BasicConv2d(cin, 3, kernel_size=1)
        self.b5_2 = BasicConv2d(3, 4, kernel_size=5, padding=2)
        self.b3 = BasicConv2d(cin, 4, kernel_size=(1, 3), padding=(0, 1))
        self.bp = BasicConv2d(cin, pool_features, kernel_size=1)

    def forward(self, x):
        bp = F.avg_pool2d(x, kernel_size=3, stride=1, padding=1, count_include_pad=False)
        return torch.cat([self.b1(x), self.b5_2(self.b5_1(x)), self.b3(x), self.bp(bp)], 1)


m = det(nn.Sequential(InceptionA(3, 2), nn.MaxPool2d(3, stride=2, ceil_mode=True), InceptionA(14, 3)))
x = data(2, 3, 9, 9)
opt = torch.optim.SGD(m.parameters(), lr=0.1, weight_decay=1e-4)
for _ in range(2):
    out = m(x)
    loss = out.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
m.eval()
report(shape=list(out.shape), loss=loss.item(), ev=m(x).detach()[1, :, 2, 2], pooled=F.avg_pool2d(x, 3, 1, 1, count_include_pad=False)[0, 0, 0])
