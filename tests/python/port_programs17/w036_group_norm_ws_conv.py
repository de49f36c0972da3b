import torch
import torch.nn as nn
import torch.nn.functional as F


class WSConv2d(nn.Conv2d):
    def forward(self, x):
        w = self.weight
        mean = w.mean(dim=(1, 2, 3), keepdim=True)
        var = w.var(dim=(1, 2, 3), keepdim=True, unbiased=False)
        w = (w - mean) / torch.sqrt(var + 1e-5)
        return F.conv2d(x, w, self.bias, self.stride, self.padding, self.dilation, self.groups)


m = nn.Sequential(WSConv2d(4, 6, 3, padding=1), nn.GroupNorm(3, 6), nn.SiLU())
det(m)
x = data(2, 4, 5, 5, seed=1)
y = m(x)
y.square().mean().backward()
report(y=y[0, 0], g=m[0].weight.grad[0, 0], gn=m[1].weight.grad, r=repr(m))
