import torch
from torch import nn


def double_conv(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel_size=3, padding=1),
        nn.GroupNorm(2, cout),
        nn.LeakyReLU(0.1),
        nn.Conv2d(cout, cout, kernel_size=3, padding=1),
        nn.GroupNorm(2, cout),
        nn.LeakyReLU(0.1),
    )


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.d1 = double_conv(1, 4)
        self.d2 = double_conv(4, 8)
        self.pool = nn.MaxPool2d(2)
        self.up = nn.ConvTranspose2d(8, 4, 2, stride=2)
        self.u1 = double_conv(8, 4)
        self.out = nn.Conv2d(4, 2, 1)

    def forward(self, x):
        c1 = self.d1(x)
        c2 = self.d2(self.pool(c1))
        u = self.up(c2)
        u = torch.cat([u, c1], dim=1)
        return self.out(self.u1(u))


torch.manual_seed(0)
net = det(UNet(), scale=0.3)
img = data(2, 1, 8, 8)
mask = (img > 0.2).long().squeeze(1)
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
hist = []
for it in range(3):
    logits = net(img)
    loss = nn.functional.cross_entropy(logits, mask)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(round(loss.item(), 5))
pred = net(img).argmax(1)
inter = ((pred == 1) & (mask == 1)).sum().float()
union = ((pred == 1) | (mask == 1)).sum().float()
report(hist=hist, iou=(inter / union.clamp(min=1)).item(), shape=list(net(img).shape), pixacc=(pred == mask).float().mean())
