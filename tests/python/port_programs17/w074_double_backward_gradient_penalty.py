import torch
import torch.nn as nn

D = det(nn.Sequential(nn.Linear(2, 8), nn.Softplus(), nn.Linear(8, 1)))
real, fake = data(4, 2, seed=1), data(4, 2, seed=2)
alpha = torch.linspace(0, 1, 4)[:, None]
inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = D(inter)
grads = torch.autograd.grad(outputs=out, inputs=inter, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
gp.backward()
x = torch.tensor(1.5, requires_grad=True)
y = x ** 4
(d1,) = torch.autograd.grad(y, x, create_graph=True)
(d2,) = torch.autograd.grad(d1, x, create_graph=True)
(d3,) = torch.autograd.grad(d2, x)
report(gp=gp, g=D[0].weight.grad, d=[d1.item(), d2.item(), d3.item()])
