import torch
import torch.nn as nn
from torch.distributions import Categorical

policy = det(nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3)))
opt = torch.optim.Adam(policy.parameters(), lr=1e-2)
states = data(5, 4)
actions = torch.tensor([0, 2, 1, 1, 0])
rewards = [1.0, 0.0, 0.5, 1.0, -1.0]
gamma = 0.9
R, returns = 0.0, []
for r in reversed(rewards):
    R = r + gamma * R
    returns.insert(0, R)
returns = torch.tensor(returns)
returns = (returns - returns.mean()) / (returns.std() + 1e-8)
for _ in range(2):
    dist = Categorical(logits=policy(states))
    log_probs = dist.log_prob(actions)
    loss = -(log_probs * returns).sum() - 0.01 * dist.entropy().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
report(returns=returns, loss=loss.item(), probs=dist.probs, ent=dist.entropy())
