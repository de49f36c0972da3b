import math
import torch
import torch.nn as nn


class Coupling(nn.Module):
    def __init__(self, dim, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.s = nn.Sequential(nn.Linear(dim, 16), nn.Tanh(), nn.Linear(16, dim), nn.Tanh())
        self.t = nn.Sequential(nn.Linear(dim, 16), nn.ReLU(), nn.Linear(16, dim))

    def forward(self, x):
        xm = x * self.mask
        s = self.s(xm) * (1 - self.mask)
        t = self.t(xm) * (1 - self.mask)
        y = xm + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)

    def inverse(self, y):
        ym = y * self.mask
        s = self.s(ym) * (1 - self.mask)
        t = self.t(ym) * (1 - self.mask)
        return ym + (1 - self.mask) * ((y - t) * torch.exp(-s))


class Flow(nn.Module):
    def __init__(self, dim=4, n=4):
        super().__init__()
        masks = [torch.tensor([(i + k) % 2 for i in range(dim)], dtype=torch.float32) for k in range(n)]
        self.layers = nn.ModuleList([Coupling(dim, m) for m in masks])
        self.prior = torch.distributions.MultivariateNormal(torch.zeros(dim), torch.eye(dim))

    def log_prob(self, x):
        logdet = torch.zeros(x.size(0))
        for l in self.layers:
            x, ld = l(x)
            logdet = logdet + ld
        return self.prior.log_prob(x) + logdet, x

    def invert(self, z):
        for l in reversed(self.layers):
            z = l.inverse(z)
        return z


flow = det(Flow(), scale=0.3)
x = data(8, 4) * torch.tensor([1.0, 0.5, 2.0, 1.0]) + 1
opt = torch.optim.Adam(flow.parameters(), lr=5e-3)
hist = []
for _ in range(4):
    lp, _ = flow.log_prob(x)
    loss = -lp.mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
with torch.no_grad():
    lp, z = flow.log_prob(x)
    back = flow.invert(z)
report(hist=hist, lp=lp, inv_ok=torch.allclose(back, x, atol=1e-5), bits=(-lp.mean() / (4 * math.log(2))).item())
