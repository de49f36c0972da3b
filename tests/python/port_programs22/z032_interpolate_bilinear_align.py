import torch
import torch.nn.functional as F

x = torch.arange(1 * 2 * 3 * 4, dtype=torch.float32).view(1, 2, 3, 4)
r = {}
for ac in (False, True):
    r[f"up_{ac}"] = F.interpolate(x, size=(5, 7), mode="bilinear", align_corners=ac)[0, 1]
    r[f"down_{ac}"] = F.interpolate(x, size=(2, 3), mode="bilinear", align_corners=ac)[0, 0]
    r[f"sf_{ac}"] = F.interpolate(x, scale_factor=1.5, mode="bilinear", align_corners=ac)[0, 0]
xg = x.clone().requires_grad_()
F.interpolate(xg, scale_factor=2, mode="bilinear", align_corners=False).pow(2).sum().backward()
r["grad"] = xg.grad[0, 0]
r["up_module"] = torch.nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)(x)[0, 0, 1]
report(**r)
