import torch
import torch.nn as nn
from torch.distributions import Categorical
policy = det(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2), nn.Softmax(dim=-1)))
value = det(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1)), 1)
opt = torch.optim.Adam(list(policy.parameters()) + list(value.parameters()), lr=1e-2)
gamma = 0.99
states = data(10, 4); actions = ints(2, 10); rewards = [1.0] * 9 + [0.0]
def discount(rewards, gamma):
    R, out = 0.0, []
    for r in rewards[::-1]:
        R = r + gamma * R
        out.insert(0, R)
    return torch.tensor(out)
G = discount(rewards, gamma)
r = torch.tensor(rewards)
G2 = torch.flip(torch.cumsum(torch.flip(r * gamma ** torch.arange(10.0), [0]), 0), [0]) / gamma ** torch.arange(10.0)
eps = torch.finfo(torch.float32).eps
Gn = (G - G.mean()) / (G.std() + eps)
hist = []
for _ in range(3):
    probs = policy(states)
    m = Categorical(probs)
    logp = m.log_prob(actions)
    v = value(states).squeeze(-1)
    adv = Gn - v.detach()
    loss = -(logp * adv).sum() + nn.functional.smooth_l1_loss(v, Gn)
    opt.zero_grad(); loss.backward(); opt.step()
    hist.append(loss.item())
report(G=G, same=torch.allclose(G, G2, atol=1e-4), Gn=Gn, hist=hist, eps=eps, ent=m.entropy().mean())
