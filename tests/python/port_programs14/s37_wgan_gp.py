import torch
import torch.nn as nn
from torch import autograd

critic = det(nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1)))
real = data(6, 3)
fake = data(6, 3, seed=2) + 1
alpha = torch.linspace(0, 1, 6).unsqueeze(1)
inter = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
out = critic(inter)
grads = autograd.grad(outputs=out, inputs=inter, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True,
                      only_inputs=True)[0]
gp = ((grads.norm(2, dim=1) - 1) ** 2).mean()
loss = critic(fake).mean() - critic(real).mean() + 10 * gp
loss.backward()
report(gp=gp, loss=loss, g=critic[0].weight.grad[0], g2=critic[2].weight.grad)
