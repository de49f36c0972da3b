import torch
import torch.nn as nn
import torch.nn.functional as F
class STN(nn.Module):
    def __init__(self):
        super().__init__()
        self.localization = nn.Sequential(nn.Conv2d(1, 4, kernel_size=3), nn.MaxPool2d(2, stride=2), nn.ReLU(True))
        self.fc_loc = nn.Sequential(nn.Linear(4 * 3 * 3, 8), nn.ReLU(True), nn.Linear(8, 3 * 2))
    def forward(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 4 * 3 * 3)
        theta = self.fc_loc(xs).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False), theta
net = det(STN(), scale=0.3)
with torch.no_grad():
    net.fc_loc[2].weight.zero_()
    net.fc_loc[2].bias.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
x = data(2, 1, 8, 8)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
target = torch.roll(x, 1, dims=3)
losses = []
for _ in range(4):
    opt.zero_grad(); y, theta = net(x); loss = F.mse_loss(y, target); loss.backward(); opt.step(); losses.append(loss.item())
res = dict(losses=losses, theta=theta)
img = torch.arange(16.0).view(1, 1, 4, 4)
th = torch.tensor([[[0.8, -0.3, 0.1], [0.2, 0.9, -0.2]]])
for ac in (True, False):
    g = F.affine_grid(th, (1, 1, 3, 5), align_corners=ac)
    for mode in ("bilinear", "nearest", "bicubic"):
        for pm in ("zeros", "border", "reflection"):
            res[f"{mode}_{pm}_{ac}"] = F.grid_sample(img, g, mode=mode, padding_mode=pm, align_corners=ac)
gi = torch.tensor([[[[-1.2, 0.3], [0.5, 0.9]], [[0.0, 0.0], [1.1, -0.7]]]], requires_grad=True)
im = data(1, 2, 3, 3).requires_grad_()
out = F.grid_sample(im, gi, align_corners=True)
out.sum().backward()
res.update(gg=gi.grad, gim=im.grad)
report(**res)
