import torch
import torch.nn as nn
G = det(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)), 0)
C = det(nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1)), 1)
optG = torch.optim.RMSprop(G.parameters(), lr=5e-4)
optC = torch.optim.RMSprop(C.parameters(), lr=5e-4)
real = data(32, 2, seed=3) * 0.5 + torch.tensor([2.0, -1.0])
z = data(32, 4, seed=4)
log = []
for it in range(6):
    for p in C.parameters():
        p.requires_grad = True
    for _ in range(3):
        optC.zero_grad()
        lossC = -(C(real).mean() - C(G(z).detach()).mean())
        lossC.backward()
        optC.step()
        for p in C.parameters():
            p.data.clamp_(-0.05, 0.05)
    for p in C.parameters():
        p.requires_grad = False
    optG.zero_grad()
    lossG = -C(G(z)).mean()
    lossG.backward()
    optG.step()
    log.append([round(lossC.item(), 6), round(lossG.item(), 6)])
w = C[0].weight
report(log=log, wmax=w.abs().max().item(), grad_none=C[0].weight.grad is not None, gsum=G[0].weight.grad.sum().item())
