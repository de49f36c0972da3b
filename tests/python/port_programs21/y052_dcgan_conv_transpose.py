import torch
import torch.nn as nn

G = det(nn.Sequential(nn.ConvTranspose2d(4, 8, 4, 1, 0, bias=False), nn.BatchNorm2d(8), nn.ReLU(True),
                      nn.ConvTranspose2d(8, 1, 4, 2, 1, bias=False), nn.Tanh()), seed=1)
D = det(nn.Sequential(nn.Conv2d(1, 8, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
                      nn.Conv2d(8, 1, 4, 1, 0, bias=False), nn.Flatten(), nn.Sigmoid()), seed=2)
oG = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
oD = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
crit = nn.BCELoss()
real = torch.tanh(data(3, 1, 8, 8, seed=3))
noise = data(3, 4, 1, 1, seed=4)
label = torch.full((3,), 1.0)
hist = []
for _ in range(3):
    D.zero_grad()
    errD_real = crit(D(real).view(-1), label)
    errD_real.backward()
    fake = G(noise)
    label.fill_(0.0)
    errD_fake = crit(D(fake.detach()).view(-1), label)
    errD_fake.backward()
    oD.step()
    G.zero_grad()
    label.fill_(1.0)
    errG = crit(D(fake).view(-1), label)
    errG.backward()
    oG.step()
    hist.append([errD_real.item(), errD_fake.item(), errG.item()])
report(hist=hist, fake=fake.shape, rm=G[1].running_mean, px=fake[0, 0, 3].detach())
