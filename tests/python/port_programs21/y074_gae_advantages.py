import torch

rewards = torch.tensor([1.0, 0.0, 0.5, 1.0, 0.0, 2.0])
values = data(7, seed=1)
dones = torch.tensor([0.0, 0.0, 1.0, 0.0, 0.0, 0.0])
gamma, lam = 0.99, 0.95
adv = torch.zeros(6)
last = 0.0
for t in reversed(range(6)):
    nonterminal = 1.0 - dones[t]
    delta = rewards[t] + gamma * values[t + 1] * nonterminal - values[t]
    last = delta + gamma * lam * nonterminal * last
    adv[t] = last
ret = adv + values[:-1]
norm = (adv - adv.mean()) / (adv.std() + 1e-8)
disc = torch.zeros(6)
running = 0.0
for t in range(5, -1, -1):
    running = rewards[t] + gamma * running * (1 - dones[t])
    disc[t] = running
report(adv=adv, ret=ret, norm=norm, disc=disc, flipped=torch.flip(torch.cumsum(torch.flip(rewards, [0]), 0), [0]))
