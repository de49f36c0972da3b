import torch
import torch.nn as nn
G = det(nn.Sequential(nn.Linear(4, 8), nn.LeakyReLU(0.2), nn.Linear(8, 2)), scale=0.4)
D = det(nn.Sequential(nn.Linear(2, 8), nn.LeakyReLU(0.2), nn.Linear(8, 1)), seed=1, scale=0.4)
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
crit = nn.BCEWithLogitsLoss()
real = data(8, 2) * 0.3 + torch.tensor([2.0, -1.0])
z = data(8, 4, seed=5)
hist = []
for step in range(5):
    fake = G(z)
    optD.zero_grad()
    lossD = crit(D(real), torch.full((8, 1), 0.9)) + crit(D(fake.detach()), torch.zeros(8, 1))
    lossD.backward(); optD.step()
    for p in D.parameters(): p.requires_grad_(False)
    optG.zero_grad()
    lossG = crit(D(fake), torch.ones(8, 1))
    lossG.backward(); optG.step()
    for p in D.parameters(): p.requires_grad_(True)
    hist.append([lossD.item(), lossG.item()])
dgrads = [p.grad is None for p in D.parameters()]
G.eval()
with torch.no_grad():
    samples = G(z[:3])
report(hist=hist, samples=samples, dg=dgrads, gstate=len(optG.state), mean=samples.mean(0))
