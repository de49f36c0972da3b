import torch
import torch.nn as nn
import torch.nn.functional as F


class SE(nn.Module):
    def __init__(self, c, r=4):
        super().__init__()
        self.fc1 = nn.Conv2d(c, c // r, 1)
        self.fc2 = nn.Conv2d(c // r, c, 1)

    def forward(self, x):
        s = F.adaptive_avg_pool2d(x, 1)
        return x * torch.sigmoid(self.fc2(F.silu(self.fc1(s))))


class MBConv(nn.Module):
    def __init__(self, cin, cout, expand=4, stride=1):
        super().__init__()
        mid = cin * expand
        self.use_res = stride == 1 and cin == cout
        self.block = nn.Sequential(
            nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.SiLU(inplace=True),
            nn.Conv2d(mid, mid, 3, stride, 1, groups=mid, bias=False), nn.BatchNorm2d(mid), nn.SiLU(),
            SE(mid), nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout))

    def forward(self, x):
        y = self.block(x)
        return x + y if self.use_res else y


model = nn.Sequential(nn.Conv2d(3, 8, 3, 2, 1), MBConv(8, 8), MBConv(8, 16, stride=2),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 5))
det(model)
opt = torch.optim.RMSprop(model.parameters(), lr=1e-3, alpha=0.9, eps=1e-3, momentum=0.9, weight_decay=1e-5)
x, y = data(6, 3, 16, 16), ints(5, 6)
losses = []
for step in range(4):
    opt.zero_grad()
    loss = F.cross_entropy(model(x), y, label_smoothing=0.1)
    loss.backward()
    opt.step()
    losses.append(loss.item())
model.eval()
with torch.no_grad():
    out = model(x)
report(losses=losses, out=out, rv=model[2].block[1].running_var[:4], nbt=model[1].block[4].num_batches_tracked.item())
