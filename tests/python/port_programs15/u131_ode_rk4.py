import torch
import torch.nn as nn


class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))

    def forward(self, t, y):
        return self.net(y) + torch.stack([y[:, 1], -y[:, 0]], 1)


def rk4(f, y0, ts):
    ys = [y0]
    y = y0
    for t0, t1 in zip(ts[:-1], ts[1:]):
        h = t1 - t0
        k1 = f(t0, y)
        k2 = f(t0 + h / 2, y + h * k1 / 2)
        k3 = f(t0 + h / 2, y + h * k2 / 2)
        k4 = f(t1, y + h * k3)
        y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)


func = det(ODEFunc(), scale=0.1)
ts = torch.linspace(0, 1.5, 7)
y0 = torch.tensor([[1.0, 0.0], [0.5, 0.5]])
true = torch.stack([torch.stack([torch.cos(ts), -torch.sin(ts)], 1) * 0.9, torch.stack([torch.cos(ts), -torch.sin(ts)], 1) * 0.6], 1)
opt = torch.optim.RMSprop(func.parameters(), lr=1e-2)
hist = []
for it in range(4):
    pred = rk4(func, y0, ts)
    loss = (pred - true).abs().mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
harmonic = rk4(lambda t, y: torch.stack([y[:, 1], -y[:, 0]], 1), torch.tensor([[1.0, 0.0]]), torch.linspace(0, 3.14159265, 50))
report(hist=hist, pred=pred[-1], harmonic_end=harmonic[-1, 0], energy=(harmonic[-1] ** 2).sum())
