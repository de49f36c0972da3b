import torch
import torch.nn.functional as F

x = data(1, 2, 4, 5)
out = {}
out["near"] = F.interpolate(x, size=(7, 8), mode="nearest")
out["nearest_exact"] = F.interpolate(x, scale_factor=1.5, mode="nearest-exact")
out["bil"] = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
out["bil_ac"] = F.interpolate(x, size=(3, 3), mode="bilinear", align_corners=True)
out["bic"] = F.interpolate(x, size=(6, 6), mode="bicubic", align_corners=False)
out["area"] = F.interpolate(x, size=(2, 2), mode="area")
out["lin1d"] = F.interpolate(x[:, :, 0], size=9, mode="linear")
out["tri"] = F.interpolate(x.unsqueeze(2), size=(2, 5, 6), mode="trilinear")
out["down_aa"] = F.interpolate(x, size=(2, 3), mode="bilinear", antialias=True)
up = torch.nn.Upsample(scale_factor=(2, 1), mode="nearest")
out["ups"] = up(x)
report(**out, repr=repr(up))
