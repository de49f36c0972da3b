import torch
import torch.nn as nn
import torch.nn.functional as F

x = torch.arange(1 * 8 * 2 * 3, dtype=torch.float32).view(1, 8, 2, 3)
ps = F.pixel_shuffle(x, 2)
back = F.pixel_unshuffle(ps, 2)
up = det(nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.PixelShuffle(2)), seed=39)
inp = data(2, 3, 4, 4, seed=40)
y = up(inp)
y.mean().backward()
un = nn.PixelUnshuffle(3)(torch.arange(36.).view(1, 1, 6, 6))
report(ps=ps[0, 1], shape=ps.shape, same=torch.equal(back, x), y=y[1, 0, :2], g=up[0].bias.grad, un=un[0, :, 0, 0],
       un_shape=un.shape)
