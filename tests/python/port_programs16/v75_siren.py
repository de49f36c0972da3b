import math
import torch
import torch.nn as nn


class SineLayer(nn.Module):
    def __init__(self, din, dout, is_first=False, omega_0=30.0):
        super().__init__()
        self.omega_0, self.is_first, self.din = omega_0, is_first, din
        self.linear = nn.Linear(din, dout)

    def init_weights(self, w):
        with torch.no_grad():
            bound = 1 / self.din if self.is_first else math.sqrt(6 / self.din) / self.omega_0
            self.linear.weight.copy_(w.clamp(-bound, bound))

    def forward(self, x):
        return torch.sin(self.omega_0 * self.linear(x))


layers = [SineLayer(2, 16, is_first=True), SineLayer(16, 16)]
net = nn.Sequential(*layers, nn.Linear(16, 1))
det(net, scale=0.3)
for i, l in enumerate(layers):
    l.init_weights(data(16, l.din, seed=20 + i) * 0.05)
coords = torch.stack(torch.meshgrid(torch.linspace(-1, 1, 5), torch.linspace(-1, 1, 5), indexing="xy"), -1).reshape(-1, 2)
img = (coords ** 2).sum(-1, keepdim=True)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for _ in range(5):
    coords_g = coords.clone().requires_grad_(True)
    out = net(coords_g)
    grad = torch.autograd.grad(out.sum(), coords_g, create_graph=True)[0]
    loss = ((out - img) ** 2).mean() + 1e-3 * grad.norm(dim=-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
report(loss=loss.item(), coords=coords[:6], grad=grad[:3].detach())
