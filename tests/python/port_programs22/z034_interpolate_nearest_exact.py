import torch
import torch.nn.functional as F

x = torch.arange(1 * 1 * 5 * 7, dtype=torch.float32).view(1, 1, 5, 7)
r = {}
for mode in ("nearest", "nearest-exact"):
    r[f"{mode}_up"] = F.interpolate(x, size=(7, 10), mode=mode)[0, 0]
    r[f"{mode}_down"] = F.interpolate(x, size=(3, 4), mode=mode)[0, 0]
    r[f"{mode}_sf"] = F.interpolate(x, scale_factor=0.6, mode=mode)[0, 0]
    r[f"{mode}_1d"] = F.interpolate(torch.arange(5.).view(1, 1, 5), size=8, mode=mode)[0, 0]
    r[f"{mode}_3d"] = F.interpolate(torch.arange(8.).view(1, 1, 2, 2, 2), size=(3, 3, 3), mode=mode)[0, 0, 1]
xi = torch.arange(6, dtype=torch.uint8).view(1, 1, 2, 3)
r["uint8"] = F.interpolate(xi, scale_factor=2, mode="nearest")[0, 0]
xg = x.clone().requires_grad_()
F.interpolate(xg, size=(3, 4), mode="nearest-exact").sum().backward()
r["grad"] = xg.grad[0, 0]
report(**r)
