import torch
import torch.nn as nn
from torch import autograd

critic = det(nn.Sequential(nn.Linear(4, 8), nn.Softplus(), nn.Linear(8, 1)))
gen = det(nn.Sequential(nn.Linear(2, 8), nn.Tanh(), nn.Linear(8, 4)), seed=4)
optC = torch.optim.RMSprop(critic.parameters(), lr=5e-3)
optG = torch.optim.RMSprop(gen.parameters(), lr=5e-3)


def gradient_penalty(critic, real, fake, alpha):
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(interp)
    grads = autograd.grad(outputs=out, inputs=interp, grad_outputs=torch.ones_like(out), create_graph=True,
                          retain_graph=True, only_inputs=True)[0]
    return ((grads.norm(2, dim=1) - 1) ** 2).mean()


real = data(6, 4)
hist = []
for it in range(3):
    z = data(6, 2, seed=20 + it)
    fake = gen(z).detach()
    alpha = torch.rand(6, 1, generator=torch.Generator().manual_seed(it)) * 0 + 0.3
    gp = gradient_penalty(critic, real, fake, alpha)
    lossC = critic(fake).mean() - critic(real).mean() + 10 * gp
    optC.zero_grad()
    lossC.backward()
    optC.step()
    lossG = -critic(gen(z)).mean()
    optG.zero_grad()
    lossG.backward()
    optG.step()
    hist.append((lossC.item(), gp.item(), lossG.item()))
report(hist=hist, w=critic[0].weight.grad.abs().sum())
