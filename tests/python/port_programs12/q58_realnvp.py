import torch
import torch.nn as nn
from torch.distributions import MultivariateNormal
class Coupling(nn.Module):
    def __init__(self, mask):
        super().__init__()
        self.register_buffer("mask", mask)
        self.s = nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 2), nn.Tanh())
        self.t = nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2))
    def forward(self, x):
        xm = x * self.mask
        s = self.s(xm) * (1 - self.mask); t = self.t(xm) * (1 - self.mask)
        y = xm + (1 - self.mask) * (x * torch.exp(s) + t)
        return y, s.sum(dim=1)
    def inverse(self, y):
        ym = y * self.mask
        s = self.s(ym) * (1 - self.mask); t = self.t(ym) * (1 - self.mask)
        return ym + (1 - self.mask) * (y - t) * torch.exp(-s)
class Flow(nn.Module):
    def __init__(self):
        super().__init__()
        masks = [torch.tensor([1.0, 0.0]), torch.tensor([0.0, 1.0])] * 2
        self.layers = nn.ModuleList([Coupling(m) for m in masks])
        self.prior = MultivariateNormal(torch.zeros(2), torch.eye(2))
    def log_prob(self, x):
        ld = torch.zeros(x.size(0))
        for l in self.layers:
            x, s = l(x); ld = ld + s
        return self.prior.log_prob(x) + ld, x
    def invert(self, z):
        for l in reversed(self.layers):
            z = l.inverse(z)
        return z
flow = det(Flow(), scale=0.3)
t = torch.linspace(0, 3.14, 32)
x = torch.stack([torch.cos(t), torch.sin(t)], 1) + 0.05 * data(32, 2)
opt = torch.optim.Adam(flow.parameters(), lr=5e-3)
nll = []
for _ in range(6):
    opt.zero_grad(); lp, _ = flow.log_prob(x); loss = -lp.mean(); loss.backward(); opt.step(); nll.append(loss.item())
with torch.no_grad():
    _, z = flow.log_prob(x[:4])
    back = flow.invert(z)
report(nll=nll, z=z, back=(back - x[:4]).abs().max().item() < 1e-5, buffers=[n for n, _ in flow.named_buffers()])
