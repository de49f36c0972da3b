import math
import torch
import torch.nn.functional as F

x = data(2, 1, 6, 6)
ang = torch.tensor([0.0, math.pi / 6])
theta = torch.zeros(2, 2, 3)
theta[:, 0, 0] = torch.cos(ang)
theta[:, 0, 1] = -torch.sin(ang)
theta[:, 1, 0] = torch.sin(ang)
theta[:, 1, 1] = torch.cos(ang)
theta[:, 0, 2] = 0.1
grid = F.affine_grid(theta, x.size(), align_corners=False)
out = F.grid_sample(x, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
out_b = F.grid_sample(x, grid, mode="nearest", padding_mode="border", align_corners=False)
out_r = F.grid_sample(x, grid, mode="bilinear", padding_mode="reflection", align_corners=True)
report(grid=grid[1, 0, :2], out=out[1, 0, 2], nb=out_b[1, 0, 3], r=out_r[1, 0, 1], ident=torch.allclose(out[0], F.grid_sample(
    x, F.affine_grid(theta, x.size(), align_corners=False))[0]))
