import torch
import torch.nn as nn
import torch.nn.functional as F
x = data(1, 2, 7, 7)
c1 = det(nn.Conv2d(2, 3, 3, padding="valid", stride=(2, 1), bias=False))
c2 = det(nn.Conv2d(2, 2, 3, padding=1, padding_mode="reflect", groups=2), 1)
c3 = det(nn.Conv2d(2, 4, (3, 1), padding=(2, 0), dilation=(2, 1)), 2)
c4 = det(nn.Conv2d(2, 2, 3, padding=1, padding_mode="replicate"), 3)
w = data(2, 1, 3, 3, seed=9)
dw = F.conv2d(x, w, groups=2, dilation=2, padding=2)
ct = F.conv_transpose2d(x, data(2, 1, 2, 2, seed=10), stride=2, groups=2)
report(c1=list(c1(x).shape), c1v=c1(x)[0, 0, 0], c2=c2(x)[0, 1, 0], c3=list(c3(x).shape), c3v=c3(x)[0, 3, :, 3], c4=c4(x)[0, 0, -1], dw=dw[0, 1, 3], ct=list(ct.shape), ctv=ct[0, 1, 0])
