import torch
import torch.nn as nn

G = det(nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2, inplace=True), nn.Linear(16, 2)), 0)
D = det(nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1), nn.Sigmoid()), 1)
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
crit = nn.BCELoss()
real = data(16, 2, seed=3) * 0.5 + torch.tensor([2.0, -1.0])
hist = []
for step in range(4):
    z = data(16, 4, seed=100 + step)
    fake = G(z)
    optD.zero_grad()
    real_lbl = torch.full((16, 1), 0.9)
    fake_lbl = torch.zeros(16, 1)
    lossD = crit(D(real), real_lbl) + crit(D(fake.detach()), fake_lbl)
    lossD.backward()
    optD.step()
    optG.zero_grad()
    lossG = crit(D(fake), torch.ones(16, 1))
    lossG.backward()
    optG.step()
    hist.append([lossD.item(), lossG.item()])
report(hist=hist, dgrad=D[0].weight.grad.abs().sum(), fake_mean=G(data(4, 4, seed=50)).mean(0))
