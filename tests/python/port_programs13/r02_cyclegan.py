import torch
import torch.nn as nn
import random
class ResBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.block = nn.Sequential(nn.ReflectionPad2d(1), nn.Conv2d(c, c, 3), nn.InstanceNorm2d(c), nn.ReLU(True),
                                   nn.ReflectionPad2d(1), nn.Conv2d(c, c, 3), nn.InstanceNorm2d(c))
    def forward(self, x):
        return x + self.block(x)
class Gen(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.ReflectionPad2d(3), nn.Conv2d(3, 8, 7), nn.InstanceNorm2d(8, affine=True), nn.ReLU(inplace=True),
                                 nn.Conv2d(8, 16, 3, stride=2, padding=1), nn.InstanceNorm2d(16), nn.ReLU(True),
                                 ResBlock(16),
                                 nn.ConvTranspose2d(16, 8, 3, stride=2, padding=1, output_padding=1), nn.InstanceNorm2d(8), nn.ReLU(True),
                                 nn.ReflectionPad2d(3), nn.Conv2d(8, 3, 7), nn.Tanh())
    def forward(self, x):
        return self.net(x)
class ImagePool:
    def __init__(self, size):
        self.size, self.images = size, []
    def query(self, imgs):
        out = []
        for img in imgs:
            img = img.unsqueeze(0)
            if len(self.images) < self.size:
                self.images.append(img); out.append(img)
            else:
                out.append(self.images.pop(0)); self.images.append(img)
        return torch.cat(out, 0)
G_AB, G_BA = det(Gen(), 0, 0.1), det(Gen(), 1, 0.1)
D = det(nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2, True), nn.Conv2d(8, 1, 4, 1, 1)), 2, 0.1)
import itertools
opt_G = torch.optim.Adam(itertools.chain(G_AB.parameters(), G_BA.parameters()), lr=2e-4, betas=(0.5, 0.999))
opt_D = torch.optim.Adam(D.parameters(), lr=2e-4, betas=(0.5, 0.999))
crit_gan, crit_cyc = nn.MSELoss(), nn.L1Loss()
A, B = data(2, 3, 16, 16, seed=3).tanh(), data(2, 3, 16, 16, seed=4).tanh()
pool = ImagePool(2)
hist = []
for it in range(2):
    fake_B = G_AB(A); rec_A = G_BA(fake_B)
    pred = D(fake_B)
    loss_G = crit_gan(pred, torch.ones_like(pred)) + 10 * crit_cyc(rec_A, A)
    opt_G.zero_grad(); loss_G.backward(); opt_G.step()
    fb = pool.query(fake_B.detach())
    pr, pf = D(B), D(fb)
    loss_D = 0.5 * (crit_gan(pr, torch.ones_like(pr)) + crit_gan(pf, torch.zeros_like(pf)))
    opt_D.zero_grad(); loss_D.backward(); opt_D.step()
    hist.append((loss_G.item(), loss_D.item()))
report(hist=hist, shape=tuple(fake_B.shape), pshape=list(pred.shape), img=G_AB(A)[0, 0, :2, :4])
