import math
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, TransformedDistribution
from torch.distributions.transforms import TanhTransform, AffineTransform

LOG_STD_MIN, LOG_STD_MAX = -5, 2


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Sequential(nn.Linear(3, 16), nn.ReLU())
        self.mu = nn.Linear(16, 2)
        self.log_std = nn.Linear(16, 2)
        self.register_buffer("action_scale", torch.tensor([2.0, 0.5]))
        self.register_buffer("action_bias", torch.tensor([0.0, 0.5]))

    def get_action(self, x, eps):
        h = self.fc(x)
        mean = self.mu(h)
        log_std = torch.tanh(self.log_std(h))
        log_std = LOG_STD_MIN + 0.5 * (LOG_STD_MAX - LOG_STD_MIN) * (log_std + 1)
        std = log_std.exp()
        normal = Normal(mean, std)
        x_t = mean + std * eps
        y_t = torch.tanh(x_t)
        action = y_t * self.action_scale + self.action_bias
        log_prob = normal.log_prob(x_t)
        log_prob -= torch.log(self.action_scale * (1 - y_t.pow(2)) + 1e-6)
        return action, log_prob.sum(1, keepdim=True), torch.tanh(mean) * self.action_scale + self.action_bias


actor = det(Actor())
s = data(4, 3)
eps = data(4, 2, seed=9)
a, lp, m = actor.get_action(s, eps)
q1 = det(nn.Sequential(nn.Linear(5, 16), nn.ReLU(), nn.Linear(16, 1)), seed=4)
alpha = torch.tensor(0.2)
actor_loss = (alpha * lp - q1(torch.cat([s, a], 1))).mean()
actor_loss.backward()
td = TransformedDistribution(Normal(torch.zeros(2), torch.ones(2)), [TanhTransform(cache_size=1), AffineTransform(0.0, 2.0)])
v = torch.tensor([0.5, -1.2])
report(a=a, lp=lp, m=m, loss=actor_loss, g=actor.mu.bias.grad, td_lp=td.log_prob(v), sample_shape=td.sample((3,)).shape,
       target_entropy=-float(torch.prod(torch.tensor([2])).item()))
