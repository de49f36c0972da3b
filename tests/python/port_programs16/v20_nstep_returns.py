import torch

rewards = torch.tensor([[1.0, 0.0, 0.5, 1.0, 0.0, 2.0], [0.0, 1.0, 1.0, 0.0, 0.0, 1.0]])
dones = torch.tensor([[0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 1, 0]], dtype=torch.bool)
values = torch.tensor([[0.5, 0.4, 0.3, 0.9, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6]])
last_value = torch.tensor([0.7, -0.3])
gamma, lam = 0.9, 0.8
T = rewards.size(1)
returns = torch.zeros_like(rewards)
R = last_value
for t in reversed(range(T)):
    R = rewards[:, t] + gamma * R * (~dones[:, t])
    returns[:, t] = R
adv = torch.zeros_like(rewards)
gae = torch.zeros(2)
next_v = last_value
for t in reversed(range(T)):
    nonterm = 1.0 - dones[:, t].float()
    delta = rewards[:, t] + gamma * next_v * nonterm - values[:, t]
    gae = delta + gamma * lam * nonterm * gae
    adv[:, t] = gae
    next_v = values[:, t]
norm_adv = (adv - adv.mean()) / (adv.std() + 1e-8)
discounts = torch.cumprod(torch.full((T,), gamma), 0) / gamma
report(returns=returns, adv=adv, norm_adv=norm_adv, discounts=discounts)
