import torch
import torch.nn as nn

critic = det(nn.Sequential(nn.Linear(3, 8), nn.Tanh(), nn.Linear(8, 1)), seed=163)
real, fake = data(4, 3, seed=164), data(4, 3, seed=165)

def penalty(alpha):
    interp = (alpha * real + (1 - alpha) * fake).requires_grad_(True)
    out = critic(interp)
    g = torch.autograd.grad(out, interp, grad_outputs=torch.ones_like(out), create_graph=True, retain_graph=True)[0]
    return ((g.norm(2, dim=1) - 1) ** 2).mean()

alpha = torch.linspace(0, 1, 4).view(4, 1)
with torch.no_grad():
    val = critic(real).mean()
    with torch.enable_grad():
        gp_eval = penalty(alpha)
gp = penalty(alpha)
gp.backward()
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x ** 3
(gx,) = torch.autograd.grad(y.sum(), x, create_graph=True)
(gxx,) = torch.autograd.grad(gx.sum(), x)
report(val=val, gp_eval=gp_eval, gp_eval_req=gp_eval.requires_grad, gp=gp, g=critic[0].weight.grad, gx=gx, gxx=gxx)
