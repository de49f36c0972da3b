import torch
import torch.nn as nn
from torch.distributions import Categorical

gamma = 0.99
policy = det(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)))
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
eps = torch.finfo(torch.float32).eps


def discount(rewards):
    R, returns = 0, []
    for r in rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    return (returns - returns.mean()) / (returns.std() + eps)


states = data(6, 4)
actions = torch.tensor([0, 1, 1, 0, 1, 0])
rewards = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0]
hist = []
for ep in range(3):
    logits = policy(states)
    m = Categorical(logits=logits)
    log_probs = m.log_prob(actions)
    returns = discount(rewards)
    loss = (-log_probs * returns).sum() - 0.01 * m.entropy().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    hist.append(loss.item())
report(hist=hist, returns=discount(rewards), probs=m.probs[0], eps=eps, ent=m.entropy())
