import torch
import torch.nn.functional as F

x = data(1, 2, 8, 8, seed=4)
a = F.interpolate(x, size=(3, 5), mode="bilinear", antialias=True)
b = F.interpolate(x, size=(4, 4), mode="bicubic", antialias=True)
c = F.interpolate(x, scale_factor=(0.5, 0.75), mode="bilinear", align_corners=False)
d = F.interpolate(x[:, :, 0], size=5, mode="linear", align_corners=True)
t = F.interpolate(data(1, 1, 2, 3, 3, seed=5), size=(3, 4, 2), mode="trilinear")
report(a=a[0, 0], b=b[0, 1], c=c[0, 0], d=d[0], t=t[0, 0, 1])
# TOL 5e-4
