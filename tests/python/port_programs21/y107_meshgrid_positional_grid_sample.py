import torch
import torch.nn.functional as F

H, W = 3, 4
ys, xs = torch.meshgrid(torch.linspace(-1, 1, H), torch.linspace(-1, 1, W), indexing="ij")
grid = torch.stack([xs, ys], dim=-1).unsqueeze(0)
img = torch.arange(12.0).view(1, 1, 3, 4)
same = F.grid_sample(img, grid, align_corners=True)
theta = torch.tensor([[[1.0, 0.0, 0.2], [0.0, 1.0, 0.0]]])
aff = F.affine_grid(theta, (1, 1, 3, 4), align_corners=False)
warped = F.grid_sample(img, aff, mode="bilinear", padding_mode="border", align_corners=False)
pos = torch.stack(torch.meshgrid(torch.arange(2), torch.arange(3), indexing="xy"), dim=0)
report(same=same[0, 0], aff=aff[0, 1], warped=warped[0, 0], pos=pos, xs=xs)
