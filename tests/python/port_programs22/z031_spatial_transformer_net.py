import torch
import torch.nn as nn
import torch.nn.functional as F

class STN(nn.Module):
    def __init__(self):
        super().__init__()
        self.localization = nn.Sequential(nn.Conv2d(1, 4, kernel_size=3), nn.MaxPool2d(2, stride=2), nn.ReLU(True))
        self.fc_loc = nn.Sequential(nn.Linear(4 * 3 * 3, 8), nn.ReLU(True), nn.Linear(8, 3 * 2))
        self.head = nn.Linear(64, 3)

    def stn(self, x):
        xs = self.localization(x)
        xs = xs.view(-1, 4 * 3 * 3)
        theta = self.fc_loc(xs).view(-1, 2, 3)
        grid = F.affine_grid(theta, x.size(), align_corners=False)
        return F.grid_sample(x, grid, align_corners=False)

    def forward(self, x):
        x = self.stn(x)
        return self.head(x.flatten(1))

model = det(STN(), seed=35)
with torch.no_grad():
    model.fc_loc[2].weight.zero_()
    model.fc_loc[2].bias.copy_(torch.tensor([1, 0, 0, 0, 1, 0], dtype=torch.float))
x = data(3, 1, 8, 8, seed=36)
ident = model.stn(x)
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
losses = []
for _ in range(3):
    loss = F.cross_entropy(model(x), torch.tensor([0, 2, 1]))
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(ident_close=bool(torch.allclose(ident, x, atol=1e-5)), losses=losses, theta=model.fc_loc[2].bias)
