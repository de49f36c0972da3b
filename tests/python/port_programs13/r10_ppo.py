import torch
import torch.nn as nn
from torch.distributions import Categorical
class ActorCritic(nn.Module):
    def __init__(self, obs=4, act=3):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(obs, 16), nn.Tanh())
        self.pi = nn.Linear(16, act)
        self.v = nn.Linear(16, 1)
    def forward(self, s):
        h = self.body(s)
        return Categorical(logits=self.pi(h)), self.v(h).squeeze(-1)
def gae(rewards, values, dones, gamma=0.99, lam=0.95):
    adv = torch.zeros_like(rewards)
    last = 0.0
    for t in reversed(range(len(rewards))):
        next_v = values[t + 1] if t + 1 < len(values) else 0.0
        nonterm = 1.0 - dones[t]
        delta = rewards[t] + gamma * next_v * nonterm - values[t]
        last = delta + gamma * lam * nonterm * last
        adv[t] = last
    return adv
net = det(ActorCritic())
opt = torch.optim.Adam(net.parameters(), lr=3e-4, eps=1e-5)
T = 16
states = data(T, 4)
actions = ints(3, T)
rewards = data(T, seed=5)
dones = torch.zeros(T); dones[7] = 1; dones[15] = 1
with torch.no_grad():
    dist, values = net(states)
    old_logp = dist.log_prob(actions)
adv = gae(rewards, values, dones)
returns = adv + values
adv = (adv - adv.mean()) / (adv.std() + 1e-8)
stats = []
for epoch in range(4):
    for mb in torch.arange(T).split(8):
        dist, v = net(states[mb])
        logp = dist.log_prob(actions[mb])
        ratio = (logp - old_logp[mb]).exp()
        s1 = ratio * adv[mb]
        s2 = torch.clamp(ratio, 1 - 0.2, 1 + 0.2) * adv[mb]
        pl = -torch.min(s1, s2).mean()
        vl = 0.5 * (returns[mb] - v).pow(2).mean()
        ent = dist.entropy().mean()
        loss = pl + 0.5 * vl - 0.01 * ent
        opt.zero_grad(); loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 0.5)
        opt.step()
    stats.append([pl.item(), vl.item(), ent.item(), ((ratio - 1).abs() > 0.2).float().mean().item()])
report(adv=adv, returns=returns, stats=stats, probs=dist.probs[:2])
