import torch
import torch.nn as nn

m = det(nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1)))
for p in m.parameters():
    p.register_hook(lambda grad: torch.clamp(grad, -0.05, 0.05))
opt = torch.optim.SGD(m.parameters(), lr=1.0)
x, y = data(6, 3, scale=3.0), data(6, 1, seed=3)
ls = []
for _ in range(3):
    opt.zero_grad()
    l = nn.functional.mse_loss(m(x), y)
    l.backward()
    ls.append([l.item(), max(p.grad.abs().max().item() for p in m.parameters())])
    opt.step()
report(ls=ls, w=m[2].weight)
