import torch
import torch.nn as nn
import torch.nn.functional as F
x = torch.arange(2 * 9, dtype=torch.float32).view(1, 2, 3, 3)
res = {}
res["nearest"] = F.interpolate(x, scale_factor=2, mode="nearest")
res["nearest_size"] = F.interpolate(x, size=(5, 4), mode="nearest")
res["nexact"] = F.interpolate(x, size=(5, 4), mode="nearest-exact")
for ac in (True, False):
    res[f"bil_{ac}"] = F.interpolate(x, size=(4, 5), mode="bilinear", align_corners=ac)
    res[f"bic_{ac}"] = F.interpolate(x, scale_factor=1.5, mode="bicubic", align_corners=ac)
    res[f"lin_{ac}"] = F.interpolate(torch.arange(5.0).view(1, 1, 5), size=8, mode="linear", align_corners=ac)
    res[f"tri_{ac}"] = F.interpolate(torch.arange(8.0).view(1, 1, 2, 2, 2), size=(3, 3, 2), mode="trilinear", align_corners=ac)
res["area"] = F.interpolate(torch.arange(36.0).view(1, 1, 6, 6), size=(4, 4), mode="area")
res["down_bil"] = F.interpolate(torch.arange(36.0).view(1, 1, 6, 6), scale_factor=0.5, mode="bilinear")
res["down_aa"] = F.interpolate(torch.arange(36.0).view(1, 1, 6, 6), size=(3, 3), mode="bilinear", antialias=True)
res["rsf"] = F.interpolate(x, scale_factor=1.7, mode="bilinear", recompute_scale_factor=True).shape
res["up"] = nn.Upsample(scale_factor=(1, 2), mode="nearest")(x)
res["upb"] = nn.UpsamplingBilinear2d(scale_factor=2)(x)[0, 0, 1]
res["upn"] = nn.UpsamplingNearest2d(size=(4, 4))(x)[0, 1]
res["n1d"] = F.interpolate(torch.arange(4.0).view(1, 1, 4), scale_factor=2.5, mode="nearest")
xr = x.clone().requires_grad_()
F.interpolate(xr, size=(5, 5), mode="bicubic", align_corners=False).pow(2).sum().backward()
res["g"] = xr.grad
ui = F.interpolate(torch.tensor([[[[0, 255], [128, 64]]]], dtype=torch.uint8), scale_factor=2, mode="nearest")
res["u8"] = ui
report(**res)
