import torch
import torch.nn as nn
from torch.distributions import Categorical

policy = det(nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3)), seed=7)
opt = torch.optim.SGD(policy.parameters(), lr=0.05)
states = data(5, 4, seed=1)
actions = torch.tensor([0, 2, 1, 1, 0])
rewards = [1.0, 0.0, 0.5, 1.0, -1.0]
gamma = 0.9
returns, R = [], 0.0
for r in reversed(rewards):
    R = r + gamma * R
    returns.insert(0, R)
returns = torch.tensor(returns)
returns = (returns - returns.mean()) / (returns.std() + 1e-8)
logits = policy(states)
dist = Categorical(logits=logits)
logp = dist.log_prob(actions)
ent = dist.entropy()
loss = -(logp * returns).sum() - 0.01 * ent.mean()
opt.zero_grad()
loss.backward()
opt.step()
report(returns=returns, logp=logp, ent=ent, loss=loss.item(), probs=dist.probs, w=policy[2].weight.detach(),
       sample_shape=list(dist.sample().shape), sample_in=bool(((dist.sample((7,)) >= 0) & (dist.sample((7,)) < 3)).all()))
