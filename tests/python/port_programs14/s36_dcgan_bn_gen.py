import torch
import torch.nn as nn


def weights_init(m):
    classname = m.__class__.__name__
    if classname.find("Conv") != -1:
        nn.init.constant_(m.weight.data, 0.02)
    elif classname.find("BatchNorm") != -1:
        nn.init.constant_(m.weight.data, 1.0)
        nn.init.constant_(m.bias.data, 0)


netG = nn.Sequential(
    nn.ConvTranspose2d(8, 16, 4, 1, 0, bias=False), nn.BatchNorm2d(16), nn.ReLU(True),
    nn.ConvTranspose2d(16, 8, 4, 2, 1, bias=False), nn.BatchNorm2d(8), nn.ReLU(True),
    nn.ConvTranspose2d(8, 3, 4, 2, 1, bias=False), nn.Tanh())
netD = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
                     nn.Conv2d(8, 16, 4, 2, 1, bias=False), nn.BatchNorm2d(16), nn.LeakyReLU(0.2, inplace=True),
                     nn.Conv2d(16, 1, 4, 1, 0, bias=False), nn.Sigmoid())
det(netG, 0, 0.05)
det(netD, 1, 0.05)
netG.apply(weights_init)
noise = data(4, 8, 1, 1)
fake = netG(noise)
out = netD(fake).view(-1)
out.mean().backward()
report(fake=fake.shape, fm=fake.mean(), out=out, rv=netG[1].running_var[:4], g=netG[0].weight.grad.abs().sum())
