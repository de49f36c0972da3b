import torch
import torch.nn as nn


class SE(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.fc = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(c, c // r, 1), nn.ReLU(), nn.Conv2d(c // r, c, 1),
                                nn.Hardsigmoid())

    def forward(self, x):
        return x * self.fc(x)


block = nn.Sequential(nn.Conv2d(4, 8, 1, bias=False), nn.BatchNorm2d(8), nn.Hardswish(),
                      nn.Conv2d(8, 8, 3, padding=1, groups=8, bias=False), nn.BatchNorm2d(8), nn.Hardswish(),
                      SE(8), nn.Conv2d(8, 4, 1, bias=False), nn.BatchNorm2d(4))
det(block, scale=0.4)
x = data(2, 4, 5, 5, seed=2)
y = block(x) + x
y.mean().backward()
report(y=y[0, 0, :2], g=block[3].weight.grad[:2].flatten(), relu6=nn.ReLU6()(torch.tensor([-1.0, 3.0, 7.0])))
