import torch
import torch.nn as nn

x = data(1, 1, 3, 3, seed=3)
mods = [nn.Upsample(scale_factor=2, mode="nearest"), nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True),
        nn.Upsample(size=(5, 4), mode="bilinear"), nn.UpsamplingNearest2d(scale_factor=2), nn.UpsamplingBilinear2d(size=(4, 4))]
outs = [m(x) for m in mods]
x1 = data(1, 2, 5, seed=4)
lin = nn.functional.interpolate(x1, scale_factor=1.6, mode="linear", recompute_scale_factor=True)
lin2 = nn.functional.interpolate(x1, scale_factor=1.6, mode="linear")
report(o=[o[0, 0] for o in outs], lin=lin[0, 1], lin2=lin2[0, 1], r=[repr(m) for m in mods])
