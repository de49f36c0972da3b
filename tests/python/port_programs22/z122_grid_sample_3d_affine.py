import torch
import torch.nn.functional as F

vol = torch.arange(1 * 1 * 3 * 4 * 5, dtype=torch.float32).view(1, 1, 3, 4, 5)
theta = torch.tensor([[[0.9, 0.1, 0.0, 0.05], [-0.1, 0.9, 0.0, 0.0], [0.0, 0.0, 1.1, -0.1]]])
r = {}
for ac in (False, True):
    grid = F.affine_grid(theta, (1, 1, 2, 3, 4), align_corners=ac)
    r[f"grid_{ac}"] = grid[0, 1, 2]
    for mode in ("bilinear", "nearest"):
        for pad in ("zeros", "border", "reflection"):
            r[f"{mode}_{pad}_{ac}"] = F.grid_sample(vol, grid, mode=mode, padding_mode=pad, align_corners=ac)[0, 0, 1]
v = vol.clone().requires_grad_()
F.grid_sample(v, F.affine_grid(theta, (1, 1, 2, 3, 4), align_corners=False), align_corners=False).sum().backward()
r["grad"] = v.grad[0, 0, 1]
report(**r)
