import torch
import torch.nn as nn
qs = torch.tensor([0.1, 0.5, 0.9])
def pinball(pred, y, q):
    diff = y.unsqueeze(1) - pred
    return torch.max(q * diff, (q - 1) * diff).mean()
net = det(nn.Sequential(nn.Linear(2, 8), nn.ReLU(), nn.Linear(8, 3)))
x = data(30, 2)
y = x.sum(1) + data(30, seed=5) * 0.5
opt = torch.optim.Adam(net.parameters(), lr=0.02)
L = []
for _ in range(6):
    pred = net(x)
    loss = pinball(pred, y, qs)
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
pred = net(x).detach()
mono, _ = torch.sort(pred, dim=1)
cover = ((y >= mono[:, 0]) & (y <= mono[:, 2])).float().mean()
hub = nn.functional.huber_loss(pred[:, 1], y, delta=0.3)
report(L=L, cover=cover, crossing=(pred[:, 0] > pred[:, 2]).sum(), hub=hub, mono=mono[0])
