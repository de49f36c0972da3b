import torch
import torch.nn.functional as F
rgb = data(1, 3, 6, 6).sigmoid()
r, g, b = rgb[:, 0], rgb[:, 1], rgb[:, 2]
maxc, argmax = rgb.max(1)
minc = rgb.min(1).values
v = maxc
delta = maxc - minc
s = torch.where(maxc > 0, delta / maxc, torch.zeros_like(maxc))
deltac = torch.where(delta == 0, torch.ones_like(delta), delta)
rc, gc, bc = (maxc - r) / deltac, (maxc - g) / deltac, (maxc - b) / deltac
h = torch.where(argmax == 0, bc - gc, torch.where(argmax == 1, 2.0 + rc - bc, 4.0 + gc - rc))
h = (h / 6.0) % 1.0
gamma = rgb.pow(1 / 2.2)
gray = rgb.mean(1, keepdim=True)
sx = torch.tensor([[-1.0, 0, 1], [-2, 0, 2], [-1, 0, 1]]).view(1, 1, 3, 3)
Ix = F.conv2d(gray, sx, padding=1); Iy = F.conv2d(gray, sx.transpose(2, 3), padding=1)
win = torch.ones(1, 1, 3, 3) / 9
Sxx, Syy, Sxy = F.conv2d(Ix * Ix, win, padding=1), F.conv2d(Iy * Iy, win, padding=1), F.conv2d(Ix * Iy, win, padding=1)
R = Sxx * Syy - Sxy ** 2 - 0.04 * (Sxx + Syy) ** 2
peaks = (R == F.max_pool2d(R, 3, stride=1, padding=1)) & (R > R.mean())
report(h=h[0, 0], s=s[0, 1], v=v[0, 2], gamma=gamma[0, 0, 0], R=R[0, 0, 2], peaks=peaks.nonzero()[:, 2:])
