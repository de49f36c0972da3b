import torch
import torch.nn as nn
from torch.distributions import Normal


class ActorCritic(nn.Module):
    def __init__(self):
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 2))
        self.critic = nn.Sequential(nn.Linear(3, 16), nn.Tanh(), nn.Linear(16, 1))
        self.log_std = nn.Parameter(torch.zeros(2) - 0.5)

    def dist(self, s):
        return Normal(self.actor(s), self.log_std.exp().expand(s.size(0), -1))


def gae(rewards, values, dones, gamma=0.99, lam=0.95):
    adv = torch.zeros_like(rewards)
    last = 0.0
    for t in reversed(range(len(rewards))):
        nv = values[t + 1] * (1.0 - dones[t])
        delta = rewards[t] + gamma * nv - values[t]
        last = delta + gamma * lam * (1.0 - dones[t]) * last
        adv[t] = last
    return adv


ac = det(ActorCritic())
s = data(6, 3)
a = data(6, 2, seed=7)
r = torch.tensor([0.1, 0.5, -0.2, 1.0, 0.0, 0.3])
d = torch.tensor([0., 0., 1., 0., 0., 0.])
with torch.no_grad():
    v = ac.critic(torch.cat([s, data(1, 3, seed=9)])).squeeze(-1)
    old_lp = ac.dist(s).log_prob(a).sum(-1)
adv = gae(r, v, d)
ret = adv + v[:-1]
adv = (adv - adv.mean()) / (adv.std() + 1e-8)
opt = torch.optim.Adam(ac.parameters(), lr=3e-3, eps=1e-5)
hist = []
for epoch in range(3):
    dist = ac.dist(s)
    lp = dist.log_prob(a).sum(-1)
    ratio = (lp - old_lp).exp()
    s1, s2 = ratio * adv, torch.clamp(ratio, 0.8, 1.2) * adv
    loss = -torch.min(s1, s2).mean() + 0.5 * (ac.critic(s).squeeze(-1) - ret).pow(2).mean() - 0.01 * dist.entropy().sum(-1).mean()
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(ac.parameters(), max_norm=0.5)
    opt.step()
    hist.append(loss.item())
report(adv=adv, ret=ret, hist=hist, log_std=ac.log_std, ratio=ratio.detach())
