import torch
import torch.nn as nn

G = nn.Sequential(nn.ConvTranspose2d(4, 8, 4, 1, 0, bias=False), nn.BatchNorm2d(8), nn.ReLU(True),
                  nn.ConvTranspose2d(8, 1, 4, 2, 1, bias=False), nn.Tanh())
D = nn.Sequential(nn.Conv2d(1, 8, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True), nn.Conv2d(8, 1, 4, 1, 0, bias=False),
                  nn.Flatten(), nn.Sigmoid())


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        pass
    elif classname.find("BatchNorm") != -1:
        nn.init.constant_(m.bias.data, 0)


det(G, seed=0)
det(D, seed=1)
G.apply(weights_init)
criterion = nn.BCELoss()
optD = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
optG = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
real = torch.tanh(data(3, 1, 8, 8))
noise = data(3, 4, 1, 1, seed=4)
hist = []
for _ in range(2):
    D.zero_grad()
    label = torch.full((3,), 1.0)
    errD_real = criterion(D(real).view(-1), label)
    errD_real.backward()
    fake = G(noise)
    label.fill_(0.0)
    errD_fake = criterion(D(fake.detach()).view(-1), label)
    errD_fake.backward()
    optD.step()
    G.zero_grad()
    label.fill_(1.0)
    errG = criterion(D(fake).view(-1), label)
    errG.backward()
    optG.step()
    hist.append([errD_real.item(), errD_fake.item(), errG.item()])
report(hist=hist, fake_shape=fake.shape, g=G[0].weight.sum())
