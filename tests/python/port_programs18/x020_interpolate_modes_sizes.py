import torch
import torch.nn.functional as F

x = data(1, 2, 4, 5, seed=1)
outs = {}
outs["near"] = F.interpolate(x, size=(6, 7), mode="nearest")
outs["near_exact"] = F.interpolate(x, scale_factor=1.5, mode="nearest-exact")
outs["bil"] = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
outs["bil_ac"] = F.interpolate(x, size=(3, 3), mode="bilinear", align_corners=True)
outs["bic"] = F.interpolate(x, size=(5, 6), mode="bicubic", align_corners=False)
outs["area"] = F.interpolate(x, size=(2, 2), mode="area")
outs["rsf"] = F.interpolate(x, scale_factor=0.6, mode="bilinear", recompute_scale_factor=True)
report(**{k: v[0, 1] for k, v in outs.items()}, shapes={k: list(v.shape) for k, v in outs.items()})
