import torch
import torch.nn as nn
import torch.nn.functional as F


def _make_divisible(v, divisor, min_value=None):
    if min_value is None:
        min_value = divisor
    new_v = max(min_value, int(v + divisor / 2) // divisor * divisor)
    if new_v < 0.9 * v:
        new_v += divisor
    return new_v


class SqueezeExcitation(nn.Module):
    def __init__(self, c, sq):
        super().__init__()
        self.fc1 = nn.Conv2d(c, sq, 1)
        self.fc2 = nn.Conv2d(sq, c, 1)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        s = F.hardsigmoid(self.fc2(F.relu(self.fc1(s))), inplace=True)
        return s * x


blk = nn.Sequential(nn.Conv2d(4, 8, 1, bias=False), nn.BatchNorm2d(8, eps=0.001, momentum=0.01), nn.Hardswish(),
                    nn.Conv2d(8, 8, 3, padding=1, groups=8, bias=False), nn.BatchNorm2d(8), SqueezeExcitation(8, _make_divisible(8 // 4, 8)), nn.Conv2d(8, 4, 1))
det(blk)
x = data(2, 4, 5, 5, seed=1)
y = blk(x) + x
y.sum().backward()
report(y=y[0, 0], divs=[_make_divisible(v, 8) for v in (3, 17, 33, 100)], rm=blk[1].running_var, g=blk[5].fc1.weight.grad[:, :, 0, 0])
