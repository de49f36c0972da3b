import torch
import torch.nn as nn

model = det(nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1)), seed=200)
x, y = data(8, 3, seed=201), data(8, 1, seed=202)
vel = [torch.zeros_like(p) for p in model.parameters()]
ls = []
for step in range(4):
    loss = ((model(x) - y) ** 2).mean()
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for p, v in zip(model.parameters(), vel):
            v.mul_(0.9).add_(p.grad)
            p -= 0.1 * v
    ls.append(loss.item())
w = torch.ones(3, requires_grad=True)
for _ in range(2):
    (w * torch.arange(3.)).sum().backward()
    w.data -= 0.5 * w.grad
    w.grad.zero_()
report(ls=ls, w0=model[0].weight, leaf=model[0].weight.is_leaf, w=w, wg=w.grad, vel=vel[3])
