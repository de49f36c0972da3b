import torch
import torch.nn as nn
class SE(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Sequential(nn.Linear(c, c // r, bias=False), nn.ReLU(inplace=True), nn.Linear(c // r, c, bias=False), nn.Sigmoid())
    def forward(self, x):
        b, c, _, _ = x.size()
        y = self.pool(x).view(b, c)
        y = self.fc(y).view(b, c, 1, 1)
        return x * y.expand_as(x)
class CBAM(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.mlp = nn.Sequential(nn.Conv2d(c, c // 2, 1), nn.ReLU(), nn.Conv2d(c // 2, c, 1))
        self.spatial = nn.Conv2d(2, 1, 7, padding=3)
    def forward(self, x):
        ca = torch.sigmoid(self.mlp(nn.functional.adaptive_avg_pool2d(x, 1)) + self.mlp(nn.functional.adaptive_max_pool2d(x, 1)))
        x = x * ca
        sa = torch.cat([x.mean(1, keepdim=True), x.amax(1, keepdim=True)], dim=1)
        return x * torch.sigmoid(self.spatial(sa))
net = det(nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), SE(8), CBAM(8), nn.AdaptiveMaxPool2d((2, 2)), nn.Flatten(), nn.Linear(32, 2)))
x = data(2, 3, 9, 9)
y = net(x)
y.sum().backward()
ap = nn.AdaptiveAvgPool2d((4, 3))(data(1, 2, 9, 7))
report(y=y, g=net[0].weight.grad[0, 0], ap=ap[0, 0], amp=nn.AdaptiveMaxPool1d(3)(data(1, 2, 8))[0])
