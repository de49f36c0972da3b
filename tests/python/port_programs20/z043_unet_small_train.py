import torch
import torch.nn as nn
import torch.nn.functional as F


def block(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.d1 = block(1, 4)
        self.d2 = block(4, 8)
        self.up = nn.ConvTranspose2d(8, 4, 2, stride=2)
        self.u1 = block(8, 4)
        self.out = nn.Conv2d(4, 1, 1)

    def forward(self, x):
        a = self.d1(x)
        b = self.d2(F.max_pool2d(a, 2))
        u = self.up(b)
        return self.out(self.u1(torch.cat([u, a], dim=1)))


m = det(UNet(), scale=0.3)
x = data(2, 1, 8, 8)
t = (data(2, 1, 8, 8, seed=5) > 0).float()
opt = torch.optim.Adam(m.parameters(), lr=1e-2)
ls = []
for _ in range(3):
    opt.zero_grad()
    logit = m(x)
    p = torch.sigmoid(logit)
    dice = 1 - (2 * (p * t).sum() + 1) / (p.sum() + t.sum() + 1)
    loss = F.binary_cross_entropy_with_logits(logit, t, pos_weight=torch.tensor([2.0])) + dice
    loss.backward()
    opt.step()
    ls.append(loss.item())
report(ls=ls, shape=logit.shape)
