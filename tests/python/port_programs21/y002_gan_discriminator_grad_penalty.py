import torch
import torch.nn as nn

D = det(nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1)), seed=4)
real = data(6, 3, seed=1)
fake = data(6, 3, seed=2)
alpha = torch.linspace(0, 1, 6).unsqueeze(1)
interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = D(interp)
grads = torch.autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out),
                            create_graph=True, retain_graph=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
loss = D(fake).mean() - D(real).mean() + 10 * gp
loss.backward()
report(gp=gp.item(), loss=loss.item(), g0=D[0].weight.grad, g2=D[2].bias.grad, gn=grads.norm(dim=1))
