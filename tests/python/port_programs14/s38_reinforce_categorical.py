import torch
import torch.nn as nn
from torch.distributions import Categorical

policy = det(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3)))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
states = data(6, 4)
actions = torch.tensor([0, 2, 1, 1, 0, 2])
rewards = torch.tensor([1.0, 0.0, 0.5, 1.0, -1.0, 2.0])
gamma = 0.9
discount = gamma ** torch.arange(len(rewards), dtype=torch.float32)
returns = torch.flip(torch.cumsum(torch.flip(rewards * discount, [0]), 0), [0]) / discount
R, rets = 0.0, []
for r in reversed(rewards.tolist()):
    R = r + gamma * R
    rets.insert(0, R)
rets = torch.tensor(rets)
norm = (returns - returns.mean()) / (returns.std() + 1e-8)
dist = Categorical(logits=policy(states))
logp = dist.log_prob(actions)
loss = -(logp * norm).sum() - 0.01 * dist.entropy().mean()
opt.zero_grad()
loss.backward()
opt.step()
d2 = Categorical(probs=torch.tensor([[0.1, 0.2, 0.7], [0.5, 0.5, 0.0]]))
report(returns=returns, rets=rets, close=torch.allclose(returns, rets), loss=loss, probs=dist.probs[0], ent=d2.entropy(),
       lp=d2.log_prob(torch.tensor([2, 1])), sshape=d2.sample((5,)).shape, mode=d2.mode if hasattr(d2, "mode") else None)
