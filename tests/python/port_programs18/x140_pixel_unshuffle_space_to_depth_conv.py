import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(1, 2, 4, 6, seed=2)
s2d = F.pixel_unshuffle(x, 2)
manual = x.view(1, 2, 2, 2, 3, 2).permute(0, 1, 3, 5, 2, 4).reshape(1, 8, 2, 3)
conv = det(nn.Conv2d(8, 3, 1))
y = conv(s2d)
report(s2d=s2d[0, :4, 0], same=torch.equal(s2d, manual), y=y[0, :, 1], back=torch.equal(F.pixel_shuffle(s2d, 2), x))
