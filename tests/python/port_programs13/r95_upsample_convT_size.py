import torch
import torch.nn as nn
up = nn.Upsample(scale_factor=2, mode="bicubic", align_corners=True)
x = data(1, 1, 3, 3)
y = up(x)
ct = det(nn.ConvTranspose2d(1, 2, 3, stride=2, padding=1), 0)
z = ct(x, output_size=[6, 6])
z2 = ct(x)
ct1 = det(nn.ConvTranspose1d(2, 1, 4, stride=2, padding=1, bias=False), 1)
w = ct1(data(1, 2, 5), output_size=[10])
up2 = nn.Upsample(size=(5, 4), mode="bilinear")(x)
upn = nn.UpsamplingNearest2d(scale_factor=2)(x)
report(y=y[0, 0, 1], z=list(z.shape), z2=list(z2.shape), zv=z[0, 1, 5], w=w[0, 0], up2=up2[0, 0, :, 1], upn=upn[0, 0, 1])
