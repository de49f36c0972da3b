import torch
import torch.nn.functional as F

img = data(1, 2, 5, 6, seed=31).requires_grad_()
grid = (data(1, 3, 4, 2, seed=32) * 0.7).requires_grad_()
out = F.grid_sample(img, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
out.pow(2).sum().backward()
img2 = data(1, 1, 5, 6, seed=33)
g2 = data(1, 2, 3, 2, seed=34) * 1.3
outs = {m: F.grid_sample(img2, g2, mode=m, padding_mode="border", align_corners=True)[0, 0] for m in ("bilinear", "nearest", "bicubic")}
bic_zero = F.grid_sample(img2, g2, mode="bicubic", padding_mode="zeros", align_corners=False)[0, 0]
report(out=out[0, 1], img_grad=img.grad[0, 0], grid_grad=grid.grad[0, 1], bic_zero=bic_zero, **outs)
