import torch
import torch.nn.functional as F

x = data(1, 2, 7, 9, seed=38)
r = {
    "area": F.interpolate(x, size=(3, 4), mode="area")[0, 1],
    "adaptive": F.adaptive_avg_pool2d(x, (3, 4))[0, 1],
    "area_up": F.interpolate(x[:, :, :3, :3], size=(5, 5), mode="area")[0, 0],
    "area_1d": F.interpolate(x[:, :, 0], size=4, mode="area")[0, 0],
    "area_sf": F.interpolate(x, scale_factor=0.5, mode="area")[0, 0],
}
xg = x.clone().requires_grad_()
F.interpolate(xg, size=(3, 4), mode="area").pow(2).sum().backward()
r["grad"] = xg.grad[0, 0, :3]
report(**r)
