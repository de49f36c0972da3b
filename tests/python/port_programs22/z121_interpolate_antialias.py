import torch
import torch.nn.functional as F

x = data(1, 2, 9, 11, seed=181)
r = {}
for mode in ("bilinear", "bicubic"):
    for ac in (False, True):
        r[f"{mode}_{ac}"] = F.interpolate(x, size=(4, 5), mode=mode, antialias=True, align_corners=ac)[0, 1]
r["aa_up"] = F.interpolate(x, size=(12, 13), mode="bilinear", antialias=True)[0, 0, :2]
r["aa_sf"] = F.interpolate(x, scale_factor=0.4, mode="bilinear", antialias=True)[0, 0]
xg = x.clone().requires_grad_()
F.interpolate(xg, size=(4, 5), mode="bilinear", antialias=True).pow(2).sum().backward()
r["grad"] = xg.grad[0, 0, :2]
report(**r)
