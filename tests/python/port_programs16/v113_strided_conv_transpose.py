import torch
import torch.nn as nn
import torch.nn.functional as F

x = data(2, 3, 5, 5)
ct = det(nn.ConvTranspose2d(3, 2, kernel_size=3, stride=2, padding=1, output_padding=1, dilation=1, groups=1))
y = ct(x)
y2 = ct(x, output_size=[9, 9])
ctg = det(nn.ConvTranspose2d(4, 4, 3, stride=2, groups=2, bias=False), seed=3)
yg = ctg(data(1, 4, 3, 3))
conv_pad = det(nn.Conv2d(3, 2, 3, padding="same", padding_mode="reflect", dilation=2), seed=5)
yc = conv_pad(x)
c1 = det(nn.Conv1d(3, 6, 3, stride=2, groups=3, padding=2, padding_mode="circular"), seed=6)
y1 = c1(x[:, :, 0])
(y.sum() + yg.sum() + yc.sum() + y1.sum()).backward()
report(y=y.shape, y2=y2.shape, y00=y[0, 0, :3, :3].detach(), yg=yg[0, 3, :2].detach(), yc=yc[1, 1, 2].detach(), y1=y1[0, :, 1].detach(),
       g=ct.weight.grad[0, 0], gc=conv_pad.weight.grad[1, 2])
