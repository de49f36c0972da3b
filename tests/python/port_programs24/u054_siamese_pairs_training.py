import torch
import torch.nn as nn
import torch.nn.functional as F


class Siamese(nn.Module):
    def __init__(self):
        super().__init__()
        self.f = nn.Sequential(nn.Conv1d(1, 3, 3), nn.ReLU(), nn.AdaptiveAvgPool1d(2), nn.Flatten(), nn.Linear(6, 3))

    def forward(self, a, b):
        return F.pairwise_distance(self.f(a), self.f(b))


net = det(Siamese())
a = data(8, 1, 10)
b = torch.cat([a[:4] + 0.05 * data(4, 1, 10, seed=2), data(4, 1, 10, seed=3)])
same = torch.tensor([1., 1., 1., 1., 0., 0., 0., 0.])
opt = torch.optim.Adam(net.parameters(), lr=0.01)
hist = []
for _ in range(6):
    d = net(a, b)
    loss = (same * d ** 2 + (1 - same) * torch.clamp(1.0 - d, min=0) ** 2).mean()
    opt.zero_grad(); loss.backward(); opt.step(); hist.append(loss.item())
with torch.no_grad():
    d = net(a, b)
thr = d.median()
report(hist=hist, d=d, pred=(d < thr).long(), thr=thr.item())
