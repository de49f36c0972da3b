import torch
import torch.nn as nn
import torch.optim as optim

nc, nz, ngf, ndf = 3, 8, 4, 4


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find('Conv') != -1:
        nn.init.constant_(m.weight.data, 0.02)
    elif classname.find('BatchNorm') != -1:
        nn.init.constant_(m.weight.data, 1.0)
        nn.init.constant_(m.bias.data, 0)


class Generator(nn.Module):
    def __init__(self, ngpu):
        super(Generator, self).__init__()
        self.ngpu = ngpu
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 4),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1, bias=False),
            nn.Tanh()
        )

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self, ngpu):
        super(Discriminator, self).__init__()
        self.ngpu = ngpu
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False),
            nn.Sigmoid()
        )

    def forward(self, input):
        return self.main(input)


netG = Generator(1)
netG.apply(weights_init)
netD = Discriminator(1)
netD.apply(weights_init)
det(netG.main[0], seed=5, scale=0.1)
det(netD.main[0], seed=6, scale=0.1)
criterion = nn.BCELoss()
fixed_noise = data(4, nz, 1, 1, seed=7)
real_label = 1.
fake_label = 0.
optimizerD = optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
G_losses, D_losses, Dx, DGz = [], [], [], []
for i in range(3):
    real_cpu = data(4, nc, 16, 16, seed=20 + i) * 0.5
    b_size = real_cpu.size(0)
    netD.zero_grad()
    label = torch.full((b_size,), real_label, dtype=torch.float)
    output = netD(real_cpu).view(-1)
    errD_real = criterion(output, label)
    errD_real.backward()
    D_x = output.mean().item()
    noise = data(b_size, nz, 1, 1, seed=30 + i)
    fake = netG(noise)
    label.fill_(fake_label)
    output = netD(fake.detach()).view(-1)
    errD_fake = criterion(output, label)
    errD_fake.backward()
    D_G_z1 = output.mean().item()
    errD = errD_real + errD_fake
    optimizerD.step()
    netG.zero_grad()
    label.fill_(real_label)
    output = netD(fake).view(-1)
    errG = criterion(output, label)
    errG.backward()
    D_G_z2 = output.mean().item()
    optimizerG.step()
    G_losses.append(errG.item())
    D_losses.append(errD.item())
    Dx.append(D_x)
    DGz.append((D_G_z1, D_G_z2))
with torch.no_grad():
    fake = netG(fixed_noise).detach().cpu()
report(G=G_losses, D=D_losses, Dx=Dx, DGz=DGz, fake_shape=fake.shape, fake=fake[0, 0, :2, :4],
       bn=netG.main[1].running_mean, init=netD.main[2].weight[0, 0, 0])
