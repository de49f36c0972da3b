import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalConv1d(nn.Conv1d):
    def __init__(self, cin, cout, k, dilation=1):
        super().__init__(cin, cout, k, dilation=dilation, padding=0)
        self.left = (k - 1) * dilation

    def forward(self, x):
        return super().forward(F.pad(x, (self.left, 0)))


net = nn.Sequential(CausalConv1d(2, 4, 3, 1), nn.ReLU(), CausalConv1d(4, 4, 3, 2), nn.ReLU(), CausalConv1d(4, 1, 2, 4))
det(net)
x = data(2, 2, 12, seed=1)
y = net(x)
x2 = x.clone()
x2[..., 8:] = 100.0
y2 = net(x2)
same = nn.Conv1d(2, 3, 5, padding="same", dilation=2, padding_mode="reflect")
det(same, seed=3)
report(y=y[0, 0], causal=torch.allclose(y[..., :8], y2[..., :8]), same=same(x)[1, 2], ss=list(same(x).shape), rf=1 + 2 * 1 + 2 * 2 + 1 * 4)
