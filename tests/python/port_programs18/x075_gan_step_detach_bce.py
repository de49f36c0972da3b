import torch
import torch.nn as nn

G = det(nn.Sequential(nn.Linear(2, 4), nn.Tanh(), nn.Linear(4, 3)), seed=1)
D = det(nn.Sequential(nn.Linear(3, 4), nn.LeakyReLU(0.2), nn.Linear(4, 1)), seed=2)
oG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
oD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
crit = nn.BCEWithLogitsLoss()
real = data(4, 3, seed=3)
z = data(4, 2, seed=4)
hist = []
for _ in range(3):
    fake = G(z)
    ld = crit(D(real), torch.ones(4, 1)) + crit(D(fake.detach()), torch.zeros(4, 1))
    oD.zero_grad()
    ld.backward()
    oD.step()
    lg = crit(D(fake), torch.ones(4, 1))
    oG.zero_grad()
    lg.backward()
    oG.step()
    hist.append([round(ld.item(), 5), round(lg.item(), 5)])
report(hist=hist, fake=G(z)[0])
