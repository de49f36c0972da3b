import torch
import torch.nn as nn
from torch.distributions import Categorical

policy = det(nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3)))
value = det(nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1)), seed=4)
opt = torch.optim.Adam([*policy.parameters(), *value.parameters()], lr=3e-3, eps=1e-5)
obs = data(12, 4)
actions = ints(3, 12)
with torch.no_grad():
    old_logp = Categorical(logits=policy(obs)).log_prob(actions)
returns = data(12, seed=7)
adv = returns - value(obs).squeeze(-1).detach()
adv = (adv - adv.mean()) / (adv.std() + 1e-8)
hist = []
for epoch in range(3):
    for mb in torch.arange(12).view(3, 4):
        dist = Categorical(logits=policy(obs[mb]))
        logp = dist.log_prob(actions[mb])
        ratio = (logp - old_logp[mb]).exp()
        pg = -torch.min(ratio * adv[mb], ratio.clamp(0.8, 1.2) * adv[mb]).mean()
        v_loss = 0.5 * (value(obs[mb]).squeeze(-1) - returns[mb]).pow(2).mean()
        loss = pg + 0.5 * v_loss - 0.01 * dist.entropy().mean()
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_([*policy.parameters(), *value.parameters()], 0.5)
        opt.step()
        hist.append(((ratio - 1).abs() > 0.2).float().mean().item())
report(loss=loss.item(), clipfrac=hist, ent=dist.entropy().detach(), probs=dist.probs[0].detach())
