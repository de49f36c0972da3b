import torch
import torch.nn.functional as F

img = data(1, 2, 5, 6, seed=1)
theta = torch.tensor([[[0.9, -0.2, 0.1], [0.3, 1.1, -0.2]]])
grid = F.affine_grid(theta, size=(1, 2, 4, 4), align_corners=False)
a = F.grid_sample(img, grid, mode="bilinear", padding_mode="zeros", align_corners=False)
b = F.grid_sample(img, grid, mode="nearest", padding_mode="border", align_corners=False)
c = F.grid_sample(img, grid * 1.3, mode="bilinear", padding_mode="reflection", align_corners=True)
d = F.grid_sample(img, grid, mode="bicubic", padding_mode="zeros", align_corners=False)
grid.requires_grad_(True)
e = F.grid_sample(img, grid, align_corners=False)
e.sum().backward()
report(a=a[0, 0], b=b[0, 1], c=c[0, 0], d=d[0, 0], gg=grid.grad[0, 0], grid=grid[0, 1])
