import torch
from torch import nn
def down(i, o, norm=True):
    layers = [nn.Conv2d(i, o, 4, 2, 1, bias=False)]
    if norm: layers.append(nn.BatchNorm2d(o))
    layers.append(nn.LeakyReLU(0.2))
    return nn.Sequential(*layers)
def up(i, o, drop=False):
    layers = [nn.ConvTranspose2d(i, o, 4, 2, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU()]
    if drop: layers.append(nn.Dropout(0.5))
    return nn.Sequential(*layers)
class UNetG(nn.Module):
    def __init__(self):
        super().__init__()
        self.d1, self.d2, self.d3 = down(3, 8, False), down(8, 16), down(16, 16)
        self.u1, self.u2 = up(16, 16), up(32, 8)
        self.final = nn.Sequential(nn.ConvTranspose2d(16, 3, 4, 2, 1), nn.Tanh())
    def forward(self, x):
        d1 = self.d1(x); d2 = self.d2(d1); d3 = self.d3(d2)
        u1 = self.u1(d3); u2 = self.u2(torch.cat([u1, d2], 1))
        return self.final(torch.cat([u2, d1], 1))
class PatchD(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(down(6, 8, False), down(8, 16), nn.ZeroPad2d((1, 0, 1, 0)), nn.Conv2d(16, 1, 4, padding=1, bias=False))
    def forward(self, a, b):
        return self.model(torch.cat((a, b), 1))
G, Dn = det(UNetG(), 0, 0.1), det(PatchD(), 1, 0.1)
oG = torch.optim.Adam(G.parameters(), lr=2e-4, betas=(0.5, 0.999))
oD = torch.optim.Adam(Dn.parameters(), lr=2e-4, betas=(0.5, 0.999))
bce = nn.BCEWithLogitsLoss(); l1 = nn.L1Loss()
real_A, real_B = data(2, 3, 32, 32, seed=5), data(2, 3, 32, 32, seed=6)
out = []
for _ in range(2):
    fake_B = G(real_A)
    pf = Dn(real_A, fake_B)
    valid = torch.ones(pf.shape, requires_grad=False)
    lg = bce(pf, valid) + 100 * l1(fake_B, real_B)
    oG.zero_grad(); lg.backward(); oG.step()
    lr_ = bce(Dn(real_A, real_B), valid)
    lf = bce(Dn(real_A, fake_B.detach()), torch.zeros_like(valid))
    ld = (lr_ + lf) * 0.5
    oD.zero_grad(); ld.backward(); oD.step()
    out.append([lg.item(), ld.item()])
report(out=out, patch=list(pf.shape), mean=fake_B.mean().item())
