import torch
import torch.nn.functional as F

img = data(1, 1, 7, 7, seed=8)
kx = torch.tensor([[-1.0, 0, 1], [-2, 0, 2], [-1, 0, 1]]).view(1, 1, 3, 3)
gx = F.conv2d(img, kx, padding=1)
gy = F.conv2d(img, kx.transpose(2, 3), padding=1)
mag = torch.hypot(gx, gy)
ang = torch.atan2(gy, gx) * 180 / torch.pi
ang = torch.remainder(ang, 180)
q = (torch.round(ang / 45) % 4).long()
pooled = F.max_pool2d(mag, 3, stride=1, padding=1)
peak = (mag == pooled) & (mag > mag.mean())
report(mag=mag[0, 0], ang=ang[0, 0, 2], q=q[0, 0], peak=peak[0, 0].int(), pi=torch.pi)
