import torch
import torch.nn as nn
from torch.func import functional_call


def task_loss(model, params, x, y):
    return nn.functional.mse_loss(functional_call(model, params, (x,)), y)


model = det(nn.Sequential(nn.Linear(1, 16), nn.Tanh(), nn.Linear(16, 1)), scale=0.5)
meta_opt = torch.optim.Adam(model.parameters(), lr=1e-2)
inner_lr = 0.1
xs = torch.linspace(-2, 2, 10).unsqueeze(1)
tasks = [(1.0, 0.0), (0.5, 1.0), (2.0, -0.5)]
hist = []
for it in range(3):
    meta_opt.zero_grad()
    total = 0.0
    for amp, phase in tasks:
        y = amp * torch.sin(xs + phase)
        params = dict(model.named_parameters())
        g = torch.autograd.grad(task_loss(model, params, xs[::2], y[::2]), list(params.values()), create_graph=True)
        adapted = {n: p - inner_lr * gi for (n, p), gi in zip(params.items(), g)}
        q = task_loss(model, adapted, xs[1::2], y[1::2])
        q.backward()
        total += q.item()
    meta_opt.step()
    hist.append(total / len(tasks))
x = torch.tensor([0.5], requires_grad=True)
f = x ** 3 * torch.sin(x)
g1, = torch.autograd.grad(f, x, create_graph=True)
g2, = torch.autograd.grad(g1, x, create_graph=True)
g3, = torch.autograd.grad(g2, x)
report(hist=hist, derivs=[g1.item(), g2.item(), g3.item()], gnorm=sum(p.grad.norm() ** 2 for p in model.parameters()) ** 0.5)
