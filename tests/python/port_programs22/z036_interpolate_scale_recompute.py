import torch
import torch.nn.functional as F

x = torch.arange(1 * 1 * 5 * 5, dtype=torch.float32).view(1, 1, 5, 5)
r = {}
for rec in (None, False, True):
    for mode in ("nearest", "bilinear"):
        kw = {} if mode == "nearest" else {"align_corners": False}
        o = F.interpolate(x, scale_factor=1.7, mode=mode, recompute_scale_factor=rec, **kw)
        r[f"{mode}_{rec}"] = o[0, 0]
o = F.interpolate(x, scale_factor=(0.5, 2.5), mode="bilinear", antialias=False, align_corners=False)
r["aniso"] = o[0, 0]
r["shape"] = list(o.shape)
r["lin1d"] = F.interpolate(torch.arange(4.).view(1, 1, 4), scale_factor=1.5, mode="linear", align_corners=False)[0, 0]
r["lin1d_ac"] = F.interpolate(torch.arange(4.).view(1, 1, 4), size=7, mode="linear", align_corners=True)[0, 0]
r["tri"] = F.interpolate(torch.arange(8.).view(1, 1, 2, 2, 2), scale_factor=1.5, mode="trilinear", align_corners=False)[0, 0, 1]
report(**r)
