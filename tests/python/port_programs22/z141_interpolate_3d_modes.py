import torch
import torch.nn.functional as F

v = torch.arange(1 * 1 * 3 * 4 * 5, dtype=torch.float32).view(1, 1, 3, 4, 5)
r = {}
for ac in (False, True):
    r[f"tri_{ac}"] = F.interpolate(v, size=(4, 3, 7), mode="trilinear", align_corners=ac)[0, 0, 2]
r["area3d"] = F.interpolate(v, size=(2, 2, 3), mode="area")[0, 0, 1]
r["ne3d"] = F.interpolate(v, scale_factor=(1.5, 0.5, 1.3), mode="nearest-exact")[0, 0, 1]
r["n3d"] = F.interpolate(v, scale_factor=(1.5, 0.5, 1.3), mode="nearest")[0, 0, 1]
vg = v.clone().requires_grad_()
F.interpolate(vg, size=(4, 3, 7), mode="trilinear", align_corners=False).pow(2).sum().backward()
r["grad"] = vg.grad[0, 0, 1]
r["1d_tuple"] = F.interpolate(torch.arange(6.).view(1, 1, 6), scale_factor=(0.5,), mode="nearest")[0, 0]
r["up3"] = torch.nn.Upsample(size=(2, 3, 4), mode="nearest")(v)[0, 0, 1]
report(**r)
