import torch
import torch.nn as nn
import torch.nn.functional as F


def block(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 3, padding=1), nn.GroupNorm(2, o), nn.SiLU())


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.d1, self.d2 = block(1, 4), block(4, 8)
        self.mid = block(8, 8)
        self.up = nn.ConvTranspose2d(8, 4, 2, stride=2)
        self.u1 = block(8, 4)
        self.out = nn.Conv2d(4, 2, 1)

    def forward(self, x):
        a = self.d1(x)
        b = self.d2(F.max_pool2d(a, 2))
        b = self.mid(b)
        u = self.up(b)
        if u.shape[-2:] != a.shape[-2:]:
            u = F.pad(u, [0, a.shape[-1] - u.shape[-1], 0, a.shape[-2] - u.shape[-2]])
        return self.out(self.u1(torch.cat([u, a], 1)))


m = det(UNet(), scale=0.3)
x = data(2, 1, 7, 9, seed=3)
y = m(x)
tgt = (data(2, 7, 9, seed=4) > 0).long()
loss = F.cross_entropy(y, tgt)
loss.backward()
dice_p = y.softmax(1)[:, 1]
dice = 1 - (2 * (dice_p * tgt).sum() + 1) / (dice_p.sum() + tgt.sum() + 1)
report(shape=list(y.shape), loss=loss, dice=dice, g=m.up.weight.grad.sum(), y=y[0, :, 0, :4])
