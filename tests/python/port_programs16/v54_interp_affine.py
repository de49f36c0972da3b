import torch
import torch.nn.functional as F

img = torch.arange(16.0).view(1, 1, 4, 4)
res = {
    "near": F.interpolate(img, scale_factor=1.5, mode="nearest")[0, 0],
    "near_exact": F.interpolate(img, size=(3, 5), mode="nearest-exact")[0, 0],
    "bil_ac": F.interpolate(img, size=(3, 3), mode="bilinear", align_corners=True)[0, 0],
    "bil_rs": F.interpolate(img, scale_factor=0.6, mode="bilinear", recompute_scale_factor=True)[0, 0],
    "bil_nors": F.interpolate(img, scale_factor=0.6, mode="bilinear")[0, 0],
    "bicubic": F.interpolate(img, size=(2, 2), mode="bicubic", align_corners=False)[0, 0],
    "area": F.interpolate(img, size=(3, 2), mode="area")[0, 0],
    "aa": F.interpolate(img, size=(2, 2), mode="bilinear", antialias=True)[0, 0],
    "linear1d": F.interpolate(torch.arange(4.0).view(1, 1, 4), size=7, mode="linear")[0, 0],
}
theta = torch.tensor([[[0.8, -0.2, 0.1], [0.3, 0.9, -0.1]]])
grid = F.affine_grid(theta, (1, 1, 3, 3), align_corners=False)
res["grid"] = grid[0, 1]
res["sample"] = F.grid_sample(img, grid, mode="bilinear", padding_mode="border", align_corners=False)[0, 0]
res["sample_near"] = F.grid_sample(img, grid, mode="nearest", padding_mode="reflection", align_corners=True)[0, 0]
report(**res)
