import copy
import torch
import torch.nn as nn
import torch.nn.functional as F

q = det(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3)), seed=1)
target = copy.deepcopy(q)
for p in target.parameters():
    p.requires_grad = False
opt = torch.optim.Adam(q.parameters(), lr=1e-3)
s, s2 = data(8, 4, seed=2), data(8, 4, seed=3)
a = ints(3, 8, seed=4)
r = data(8, seed=5)
done = torch.tensor([0, 0, 1, 0, 0, 1, 0, 0], dtype=torch.bool)
gamma = 0.99
hist = []
for step in range(4):
    qsa = q(s).gather(1, a.unsqueeze(1)).squeeze(1)
    with torch.no_grad():
        next_a = q(s2).argmax(1, keepdim=True)
        next_q = target(s2).gather(1, next_a).squeeze(1)
        y = r + gamma * next_q * (~done).float()
    loss = F.smooth_l1_loss(qsa, y)
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_value_(q.parameters(), 1.0)
    opt.step()
    hist.append(loss.item())
    with torch.no_grad():
        for tp, p in zip(target.parameters(), q.parameters()):
            tp.mul_(0.9).add_(0.1 * p)
eps_greedy = torch.where(torch.tensor([0.05, 0.5, 0.01]) < 0.1, torch.tensor([2, 2, 2]), q(s[:3]).argmax(1))
report(hist=hist, tq=target(s[:2]), eg=eps_greedy, req=target[0].weight.requires_grad)
