import math
import torch
import torch.nn as nn
net = det(nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 1)), 0, 0.3)
def u(x, t):
    return net(torch.cat([x, t], dim=1))
x = torch.linspace(-1, 1, 9).view(-1, 1).requires_grad_(True)
t = torch.full_like(x, 0.5).requires_grad_(True)
nu = 0.01 / math.pi
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
hist = []
for _ in range(3):
    uu = u(x, t)
    u_t = torch.autograd.grad(uu, t, grad_outputs=torch.ones_like(uu), create_graph=True)[0]
    u_x = torch.autograd.grad(uu, x, torch.ones_like(uu), create_graph=True, retain_graph=True)[0]
    u_xx = torch.autograd.grad(u_x.sum(), x, create_graph=True)[0]
    f = u_t + uu * u_x - nu * u_xx
    x0 = torch.linspace(-1, 1, 5).view(-1, 1)
    ic = u(x0, torch.zeros_like(x0)) + torch.sin(math.pi * x0)
    bc = u(torch.tensor([[-1.0], [1.0]]), torch.tensor([[0.3], [0.3]]))
    loss = f.pow(2).mean() + ic.pow(2).mean() + bc.pow(2).mean()
    opt.zero_grad(); loss.backward(); opt.step()
    hist.append(loss.item())
report(hist=hist, u_xx=u_xx[:3], u_t=u_t[:3], xgrad=x.grad is None or x.grad.abs().sum().item() >= 0)
