import torch
import torch.nn as nn
from torch.nn.utils import weight_norm


class Chomp(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def forward(self, x):
        return x[:, :, : -self.n].contiguous()


class TemporalBlock(nn.Module):
    def __init__(self, cin, cout, k, d):
        super().__init__()
        pad = (k - 1) * d
        self.net = nn.Sequential(weight_norm(nn.Conv1d(cin, cout, k, padding=pad, dilation=d)), Chomp(pad), nn.ReLU())
        self.down = nn.Conv1d(cin, cout, 1) if cin != cout else None

    def forward(self, x):
        res = x if self.down is None else self.down(x)
        return torch.relu(self.net(x) + res)


tcn = det(nn.Sequential(TemporalBlock(2, 4, 3, 1), TemporalBlock(4, 4, 3, 2)))
x = data(2, 2, 10)
y = tcn(x)
x2 = x.clone()
x2[:, :, -1] += 5
y2 = tcn(x2)
y.mean().backward()
report(y=y[0, :, -1], causal=torch.allclose(y[:, :, :-1], y2[:, :, :-1]), names=sorted(n for n, _ in tcn[0].named_parameters()),
       g=tcn[0].net[0].weight_g.grad.flatten())
