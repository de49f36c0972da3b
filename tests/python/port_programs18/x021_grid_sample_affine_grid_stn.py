import math
import torch
import torch.nn.functional as F

img = data(2, 1, 5, 6, seed=3)
ang = torch.tensor([0.0, math.pi / 6])
theta = torch.zeros(2, 2, 3)
theta[:, 0, 0] = ang.cos()
theta[:, 0, 1] = -ang.sin()
theta[:, 1, 0] = ang.sin()
theta[:, 1, 1] = ang.cos()
theta[1, :, 2] = torch.tensor([0.1, -0.2])
grid = F.affine_grid(theta, img.size(), align_corners=False)
out = F.grid_sample(img, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
outn = F.grid_sample(img, grid, mode="nearest", padding_mode="border", align_corners=False)
outr = F.grid_sample(img, grid, mode="bilinear", padding_mode="reflection", align_corners=True)
report(ident=torch.allclose(out[0], img[0], atol=1e-5), out=out[1, 0], outn=outn[1, 0, 2], outr=outr[1, 0, 1],
       grid=grid[1, 0, :2])
