import torch
import torch.nn.functional as F

img = (torch.sigmoid(data(1, 1, 4, 6, seed=1)) * 255).to(torch.uint8)
near = F.interpolate(img, size=(2, 3), mode="nearest")
x = img.float()
aa = F.interpolate(x, size=(2, 3), mode="bilinear", antialias=True, align_corners=False)
up = F.interpolate(x, scale_factor=(2, 1.5), mode="bicubic", align_corners=True).round().clamp(0, 255).to(torch.uint8)
report(near=near, ndt=near.dtype, aa=aa, up=up[0, 0, :2])
