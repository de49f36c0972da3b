import math
import torch
import torch.nn as nn
class Planar(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.u = nn.Parameter(torch.randn(1, d))
        self.w = nn.Parameter(torch.randn(1, d))
        self.b = nn.Parameter(torch.randn(1))
    def forward(self, z):
        wu = (self.w @ self.u.t()).squeeze()
        m = -1 + torch.nn.functional.softplus(wu)
        u_hat = self.u + (m - wu) * self.w / (self.w.norm() ** 2)
        lin = z @ self.w.t() + self.b
        f = z + u_hat * torch.tanh(lin)
        psi = (1 - torch.tanh(lin) ** 2) * self.w
        logdet = torch.log(torch.abs(1 + psi @ u_hat.t()) + 1e-8).squeeze(-1)
        return f, logdet
flows = nn.ModuleList([Planar(2) for _ in range(4)])
det(flows, 0, 0.5)
def target_logp(z):
    z1, z2 = z[:, 0], z[:, 1]
    return -0.5 * ((torch.sqrt(z1 ** 2 + z2 ** 2) - 2) / 0.4) ** 2
opt = torch.optim.Adam(flows.parameters(), lr=1e-2)
base = torch.distributions.Normal(torch.zeros(2), torch.ones(2))
L = []
for it in range(5):
    z0 = data(64, 2, seed=it)
    logq = base.log_prob(z0).sum(-1)
    z = z0
    for f in flows:
        z, ld = f(z)
        logq = logq - ld
    loss = (logq - target_logp(z)).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    L.append(loss.item())
report(L=L, z=z[:3], c=-0.5 * 2 * math.log(2 * math.pi))
