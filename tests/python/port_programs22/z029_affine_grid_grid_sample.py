import math
import torch
import torch.nn.functional as F

img = torch.arange(2 * 1 * 4 * 5, dtype=torch.float32).view(2, 1, 4, 5)
a = math.pi / 6
theta = torch.tensor([[[math.cos(a), -math.sin(a), 0.1], [math.sin(a), math.cos(a), -0.2]],
                      [[1.2, 0.0, 0.0], [0.0, 0.8, 0.3]]])
res = {}
for ac in (False, True):
    grid = F.affine_grid(theta, img.size(), align_corners=ac)
    res[f"grid_{ac}"] = grid[0, 1]
    for mode in ("bilinear", "nearest"):
        for pad in ("zeros", "border", "reflection"):
            out = F.grid_sample(img, grid, mode=mode, padding_mode=pad, align_corners=ac)
            res[f"{mode}_{pad}_{ac}"] = out[:, 0, 1:3]
report(**res)
