import torch
import torch.nn as nn

ct = det(nn.ConvTranspose2d(3, 2, kernel_size=3, stride=2, padding=1, output_padding=1, dilation=1, groups=1))
x = data(1, 3, 4, 4, seed=1)
y = ct(x)
y2 = ct(x, output_size=[7, 7])
ct1 = det(nn.ConvTranspose1d(2, 4, 4, stride=3, padding=2, groups=2, bias=False), seed=3)
z = ct1(data(2, 2, 5, seed=4))
report(y=y[0, 0, :3], ys=list(y.shape), y2s=list(y2.shape), y2=y2[0, 1, -1], z=z[1, 3], zs=list(z.shape))
