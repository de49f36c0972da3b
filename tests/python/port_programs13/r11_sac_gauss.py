import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal
LOG_STD_MIN, LOG_STD_MAX = -5, 2
class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 16)
        self.mu = nn.Linear(16, 2)
        self.log_std = nn.Linear(16, 2)
    def forward(self, s, eps):
        h = F.relu(self.fc(s))
        mu = self.mu(h)
        log_std = torch.tanh(self.log_std(h))
        log_std = LOG_STD_MIN + 0.5 * (LOG_STD_MAX - LOG_STD_MIN) * (log_std + 1)
        std = log_std.exp()
        normal = Normal(mu, std)
        x_t = mu + std * eps
        y_t = torch.tanh(x_t)
        action = y_t * 2.0
        log_prob = normal.log_prob(x_t)
        log_prob -= torch.log(2.0 * (1 - y_t.pow(2)) + 1e-6)
        return action, log_prob.sum(1, keepdim=True), normal.entropy().sum(-1)
actor = det(Actor())
log_alpha = torch.zeros(1, requires_grad=True)
a_opt = torch.optim.Adam([log_alpha], lr=3e-4)
p_opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
target_entropy = -2.0
s = data(6, 3)
q = data(6, 1, seed=8)
out = []
for i in range(3):
    a, lp, ent = actor(s, data(6, 2, seed=20 + i))
    alpha = log_alpha.exp().detach()
    pl = (alpha * lp - q * a.sum(-1, keepdim=True)).mean()
    p_opt.zero_grad(); pl.backward(); p_opt.step()
    al = (-log_alpha.exp() * (lp.detach() + target_entropy)).mean()
    a_opt.zero_grad(); al.backward(); a_opt.step()
    out.append([pl.item(), al.item(), log_alpha.item()])
report(out=out, a=a, lp=lp, ent=ent)
