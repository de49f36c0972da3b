import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Categorical
class Policy(nn.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = nn.Linear(4, 16); self.dropout = nn.Dropout(p=0.0); self.affine2 = nn.Linear(16, 2)
        self.saved_log_probs = []; self.rewards = []
    def forward(self, x):
        x = self.affine1(x); x = self.dropout(x); x = F.relu(x)
        return F.softmax(self.affine2(x), dim=1)
policy = det(Policy(), 0, 0.4)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
eps = 1e-7
gamma = 0.99
states = data(6, 4); actions = [0, 1, 1, 0, 1, 0]; rewards = [1.0, 1.0, 0.0, 1.0, 1.0, 0.5]
hist = []
for ep in range(3):
    for t in range(6):
        probs = policy(states[t].unsqueeze(0))
        m = Categorical(probs)
        action = torch.tensor([actions[t]])
        policy.saved_log_probs.append(m.log_prob(action))
        policy.rewards.append(rewards[t])
    R = 0
    policy_loss = []
    returns = []
    for r in policy.rewards[::-1]:
        R = r + gamma * R
        returns.insert(0, R)
    returns = torch.tensor(returns)
    returns = (returns - returns.mean()) / (returns.std() + eps)
    for log_prob, R in zip(policy.saved_log_probs, returns):
        policy_loss.append(-log_prob * R)
    optimizer.zero_grad()
    policy_loss = torch.cat(policy_loss).sum()
    policy_loss.backward()
    optimizer.step()
    del policy.rewards[:]; del policy.saved_log_probs[:]
    hist.append(policy_loss.item())
probs = policy(states)
m = Categorical(probs)
report(hist=hist, ent=m.entropy(), lp=m.log_prob(torch.tensor(actions)), returns=returns, sample_shape=list(m.sample().shape))
