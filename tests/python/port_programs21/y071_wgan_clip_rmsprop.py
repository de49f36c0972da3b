import torch
import torch.nn as nn

G = det(nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 2)), seed=1)
C = det(nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 1)), seed=2)
oG = torch.optim.RMSprop(G.parameters(), lr=5e-3)
oC = torch.optim.RMSprop(C.parameters(), lr=5e-3)
real = data(16, 2, seed=3) + 2
hist = []
for it in range(4):
    for _ in range(2):
        oC.zero_grad()
        z = data(16, 2, seed=10 + it)
        loss_c = -(C(real).mean() - C(G(z).detach()).mean())
        loss_c.backward()
        oC.step()
        for p in C.parameters():
            p.data.clamp_(-0.05, 0.05)
    oG.zero_grad()
    loss_g = -C(G(data(16, 2, seed=20 + it))).mean()
    loss_g.backward()
    oG.step()
    hist.append([loss_c.item(), loss_g.item()])
report(hist=hist, cmax=max(p.abs().max().item() for p in C.parameters()), g=G[2].bias.detach())
