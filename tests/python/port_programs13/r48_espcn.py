import math
import torch
import torch.nn as nn
import torch.nn.functional as F
class ESPCN(nn.Module):
    def __init__(self, r=2):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 5, padding=2)
        self.c2 = nn.Conv2d(8, 4, 3, padding=1)
        self.c3 = nn.Conv2d(4, r * r, 3, padding=1)
        self.ps = nn.PixelShuffle(r)
    def forward(self, x):
        return self.ps(self.c3(torch.tanh(self.c2(torch.tanh(self.c1(x))))))
hr = data(2, 1, 12, 12).sigmoid()
lr = F.interpolate(hr, scale_factor=0.5, mode="bicubic", align_corners=False).clamp(0, 1)
net = det(ESPCN(), 0, 0.1)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
psnrs = []
for _ in range(3):
    sr = net(lr)
    mse = F.mse_loss(sr, hr)
    opt.zero_grad(); mse.backward(); opt.step()
    psnrs.append(10 * math.log10(1 / mse.item()))
unsh = nn.PixelUnshuffle(2)(hr)
back = F.pixel_shuffle(unsh, 2)
bil = F.interpolate(lr, size=(12, 12), mode="bilinear", align_corners=True)
report(psnrs=psnrs, lr=lr[0, 0, :2, :3], unsh=list(unsh.shape), same=torch.equal(back, hr), bil=bil[0, 0, 0, :4], bilpsnr=-10 * torch.log10(F.mse_loss(bil, hr)))
