import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 8)
        self.mu = nn.Linear(8, 2)
        self.log_std = nn.Parameter(torch.zeros(2) - 0.5)
        self.v = nn.Linear(8, 1)

    def forward(self, s):
        h = torch.tanh(self.body(s))
        return Normal(self.mu(h), self.log_std.exp()), self.v(h).squeeze(-1)


ac = det(ActorCritic(), seed=3)
opt = torch.optim.Adam(ac.parameters(), lr=3e-3)
s = data(6, 3, seed=1)
a = data(6, 2, seed=2)
ret = data(6, seed=3)
hist = []
for _ in range(4):
    dist, v = ac(s)
    logp = dist.log_prob(a).sum(-1)
    adv = (ret - v).detach()
    loss = -(logp * adv).mean() + 0.5 * F.mse_loss(v, ret) - 0.001 * dist.entropy().sum(-1).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
report(hist=hist, log_std=ac.log_std.detach(), logp=logp.detach(), rs=list(dist.rsample().shape))
