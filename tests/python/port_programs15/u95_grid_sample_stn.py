import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class STN(nn.Module):
    def __init__(self):
        super().__init__()
        self.loc = nn.Sequential(nn.Conv2d(1, 4, 3), nn.MaxPool2d(2), nn.ReLU(), nn.Flatten(), nn.Linear(4 * 3 * 3, 6))
        with torch.no_grad():
            self.loc[-1].weight.zero_()
            self.loc[-1].bias.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))

    def forward(self, x):
        theta = self.loc(x).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False), theta


x = data(2, 1, 8, 8)
stn = STN()
out, theta = stn(x)
ident = torch.allclose(out, x, atol=1e-5)
ang = math.pi / 6
rot = torch.tensor([[math.cos(ang), -math.sin(ang), 0.1], [math.sin(ang), math.cos(ang), -0.2]]).unsqueeze(0)
g = F.affine_grid(rot, (1, 1, 5, 5), align_corners=True)
r = {}
r["bil"] = F.grid_sample(x[:1], g, mode="bilinear", padding_mode="zeros", align_corners=True)[0, 0, 2]
r["near"] = F.grid_sample(x[:1], g, mode="nearest", padding_mode="border", align_corners=True)[0, 0, 1]
r["refl"] = F.grid_sample(x[:1], g * 1.5, mode="bilinear", padding_mode="reflection", align_corners=False)[0, 0, 0]
r["bicubic"] = F.grid_sample(x[:1], g, mode="bicubic", align_corners=True)[0, 0, 3]
xs = x[:1].clone().requires_grad_()
gg = g.clone().requires_grad_()
F.grid_sample(xs, gg, align_corners=True).sum().backward()
r["gx"] = xs.grad[0, 0, 0]
r["gg"] = gg.grad[0, 0]
r["grid00"] = g[0, 0, 0]
report(ident=ident, theta=theta[0], **r)
