import torch
import torch.nn.functional as F

B, C, H, W = 1, 2, 4, 5
x = data(B, C, H, W, seed=1)
off = data(B, 2, H, W, seed=2) * 0.3
ys, xs = torch.meshgrid(torch.arange(H, dtype=torch.float32), torch.arange(W, dtype=torch.float32), indexing="ij")
base = torch.stack((xs, ys), dim=-1)
pos = base + off.permute(0, 2, 3, 1)
norm = torch.stack((2 * pos[..., 0] / (W - 1) - 1, 2 * pos[..., 1] / (H - 1) - 1), dim=-1)
y = F.grid_sample(x, norm, align_corners=True, padding_mode="border")
same = F.grid_sample(x, torch.stack((2 * xs / (W - 1) - 1, 2 * ys / (H - 1) - 1), -1)[None], align_corners=True)
report(y=y[0, 1], same=torch.allclose(same, x, atol=1e-5), base=base[1, 2])
