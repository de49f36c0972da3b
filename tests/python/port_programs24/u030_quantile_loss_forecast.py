import torch
import torch.nn as nn

quantiles = torch.tensor([0.1, 0.5, 0.9])


def pinball(pred, y, q):
    diff = y.unsqueeze(-1) - pred
    return torch.maximum(q * diff, (q - 1) * diff).mean()


x = data(40, 5)
y = x[:, 0] * 1.5 - x[:, 1] + 0.3 * data(40, seed=9)
model = det(nn.Sequential(nn.Linear(5, 10), nn.GELU(), nn.Linear(10, 3)))
opt = torch.optim.Adam(model.parameters(), lr=0.03)
for step in range(30):
    loss = pinball(model(x), y, quantiles)
    opt.zero_grad(); loss.backward(); opt.step()
with torch.no_grad():
    p = model(x)
coverage = ((y >= p[:, 0]) & (y <= p[:, 2])).float().mean()
crossing = (p[:, 0] > p[:, 1]).sum()
sorted_p, _ = torch.sort(p, dim=1)
report(loss=loss.item(), coverage=coverage.item(), crossing=crossing.item(), width=(p[:, 2] - p[:, 0]).mean().item(),
       sorted_first=sorted_p[0], gelu_tanh=nn.functional.gelu(torch.tensor([-1.0, 0.5, 2.0]), approximate="tanh"))
