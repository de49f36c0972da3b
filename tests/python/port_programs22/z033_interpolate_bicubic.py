import torch
import torch.nn.functional as F

x = data(1, 1, 4, 5, seed=37)
r = {}
for ac in (False, True):
    r[f"up_{ac}"] = F.interpolate(x, size=(6, 7), mode="bicubic", align_corners=ac)[0, 0]
    r[f"down_{ac}"] = F.interpolate(x, size=(3, 3), mode="bicubic", align_corners=ac)[0, 0]
xg = x.clone().requires_grad_()
F.interpolate(xg, scale_factor=(2, 1.5), mode="bicubic", align_corners=False).sum().backward()
r["grad"] = xg.grad[0, 0]
r["int_img"] = F.interpolate(torch.arange(16.).view(1, 1, 4, 4), scale_factor=2, mode="bicubic")[0, 0, :3]
report(**r)
