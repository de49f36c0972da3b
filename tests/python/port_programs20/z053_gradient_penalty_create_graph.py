import torch
import torch.nn as nn

D = det(nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 1)))
real, fake = data(4, 2), data(4, 2, seed=3)
alpha = torch.linspace(0, 1, 4).unsqueeze(1)
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = D(interp)
grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
loss = D(fake).mean() - D(real).mean() + 10 * gp
loss.backward()
report(gp=gp, loss=loss, g=D[0].weight.grad, grads=grads)
