import torch
import torch.nn as nn
import torch.nn.functional as F


class AC(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 8)
        self.pi = nn.Linear(8, 2)
        self.v = nn.Linear(8, 1)

    def forward(self, s):
        h = torch.tanh(self.body(s))
        return self.pi(h), self.v(h).squeeze(-1)


ac = det(AC())
T = 6
states = data(T + 1, 3)
rewards = torch.tensor([0.0, 1.0, 0.0, 0.0, 1.0, 1.0])
dones = torch.tensor([0, 0, 1, 0, 0, 0], dtype=torch.float32)
actions = torch.tensor([1, 0, 1, 1, 0, 0])
logits, values = ac(states)
gamma, lam = 0.99, 0.95
adv = torch.zeros(T)
last = 0.0
v = values.detach()
for t in reversed(range(T)):
    nonterm = 1.0 - dones[t]
    delta = rewards[t] + gamma * v[t + 1] * nonterm - v[t]
    last = delta + gamma * lam * nonterm * last
    adv[t] = last
ret = adv + v[:-1]
logp = F.log_softmax(logits[:-1], -1).gather(1, actions.unsqueeze(1)).squeeze(1)
ent = -(F.softmax(logits, -1) * F.log_softmax(logits, -1)).sum(-1).mean()
loss = -(logp * adv).mean() + 0.5 * F.mse_loss(values[:-1], ret) - 0.01 * ent
loss.backward()
report(adv=adv, ret=ret, loss=loss, g=ac.v.weight.grad)
