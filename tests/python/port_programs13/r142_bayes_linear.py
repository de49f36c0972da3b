import torch
import torch.nn as nn
import torch.nn.functional as F
class BayesLinear(nn.Module):
    def __init__(self, i, o, prior_sigma=1.0):
        super().__init__()
        self.w_mu = nn.Parameter(torch.zeros(o, i))
        self.w_rho = nn.Parameter(torch.full((o, i), -3.0))
        self.b_mu = nn.Parameter(torch.zeros(o))
        self.b_rho = nn.Parameter(torch.full((o,), -3.0))
        self.prior_sigma = prior_sigma
    def forward(self, x, eps_w, eps_b):
        w_sigma, b_sigma = F.softplus(self.w_rho), F.softplus(self.b_rho)
        w = self.w_mu + w_sigma * eps_w
        b = self.b_mu + b_sigma * eps_b
        return F.linear(x, w, b)
    def kl(self):
        def kl_term(mu, sigma):
            return (torch.log(self.prior_sigma / sigma) + (sigma ** 2 + mu ** 2) / (2 * self.prior_sigma ** 2) - 0.5).sum()
        return kl_term(self.w_mu, F.softplus(self.w_rho)) + kl_term(self.b_mu, F.softplus(self.b_rho))
layer = BayesLinear(3, 2)
with torch.no_grad():
    layer.w_mu.copy_(data(2, 3) * 0.3)
x, y = data(10, 3, seed=3), data(10, 2, seed=4)
opt = torch.optim.Adam(layer.parameters(), lr=0.05)
L = []
for i in range(4):
    out = layer(x, data(2, 3, seed=10 + i), data(2, seed=20 + i))
    loss = F.mse_loss(out, y, reduction="sum") + layer.kl() / 10
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
kl_lib = torch.distributions.kl_divergence(torch.distributions.Normal(layer.w_mu, F.softplus(layer.w_rho)), torch.distributions.Normal(0.0, 1.0)).sum()
report(L=L, kl=layer.kl(), kl_lib=kl_lib, rho=layer.w_rho[0])
