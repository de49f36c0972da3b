import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class DeepAR(nn.Module):
    def __init__(self, h=8):
        super().__init__()
        self.rnn = nn.LSTM(2, h, batch_first=True)
        self.mu = nn.Linear(h, 1)
        self.sigma = nn.Linear(h, 1)

    def forward(self, x, cov):
        out, _ = self.rnn(torch.cat([x, cov], -1))
        return self.mu(out).squeeze(-1), F.softplus(self.sigma(out)).squeeze(-1) + 1e-3


t = torch.arange(48).float()
y = (torch.sin(t / 4) * 2 + 5 + 0.2 * data(48)).view(3, 16)
cov = (torch.arange(16).float() / 16).expand(3, 16).unsqueeze(-1)
scale = y.abs().mean(1, keepdim=True) + 1
inp = torch.cat([torch.zeros(3, 1), y[:, :-1]], 1) / scale
model = det(DeepAR())
opt = torch.optim.Adam(model.parameters(), lr=0.01)
hist = []
for _ in range(5):
    mu, sigma = model(inp.unsqueeze(-1), cov)
    nll = -Normal(mu * scale, sigma * scale).log_prob(y).mean()
    opt.zero_grad(); nll.backward(); opt.step(); hist.append(nll.item())
dist = Normal(mu * scale, sigma * scale)
report(hist=hist, mean=dist.mean[0, :4], stddev=dist.stddev[0, :4], cdf=dist.cdf(y)[0, :3], icdf=dist.icdf(torch.tensor(0.9))[1, :3],
       entropy=dist.entropy().mean().item(), gnll=F.gaussian_nll_loss(mu * scale, y, (sigma * scale) ** 2).item())
