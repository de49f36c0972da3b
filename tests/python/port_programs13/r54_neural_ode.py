import torch
import torch.nn as nn
class ODEFunc(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 2))
    def forward(self, t, y):
        return self.net(y ** 3)
def rk4(f, y0, t):
    ys = [y0]
    y = y0
    for i in range(len(t) - 1):
        dt = t[i + 1] - t[i]
        k1 = f(t[i], y)
        k2 = f(t[i] + dt / 2, y + dt * k1 / 2)
        k3 = f(t[i] + dt / 2, y + dt * k2 / 2)
        k4 = f(t[i] + dt, y + dt * k3)
        y = y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
        ys.append(y)
    return torch.stack(ys)
true_A = torch.tensor([[-0.1, 2.0], [-2.0, -0.1]])
t = torch.linspace(0, 1.0, 11)
y0 = torch.tensor([[2.0, 0.0]])
with torch.no_grad():
    true_y = rk4(lambda t, y: torch.mm(y ** 3, true_A), y0, t)
func = det(ODEFunc(), 0, 0.1)
opt = torch.optim.RMSprop(func.parameters(), lr=1e-3)
L = []
for _ in range(4):
    pred = rk4(func, y0, t)
    loss = torch.mean(torch.abs(pred - true_y))
    opt.zero_grad(); loss.backward(); opt.step(); L.append(loss.item())
report(true_y=true_y[-1], L=L, t=t[:3], shape=list(pred.shape))
