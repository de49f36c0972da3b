import torch
import torch.nn as nn

energy = det(nn.Sequential(nn.Linear(2, 16), nn.Softplus(), nn.Linear(16, 1)))
noise = data(10, 6, 2, seed=8)
x = data(6, 2, seed=3)
for p in energy.parameters():
    p.requires_grad_(False)
step = 0.05
traj = []
for k in range(10):
    x = x.detach().requires_grad_(True)
    e = energy(x).sum()
    (g,) = torch.autograd.grad(e, x)
    x = x - 0.5 * step * g + (step ** 0.5) * 0.1 * noise[k]
    traj.append(e.item())
for p in energy.parameters():
    p.requires_grad_(True)
real = data(6, 2, seed=4)
loss = energy(real).mean() - energy(x.detach()).mean() + 0.1 * (energy(real) ** 2).mean()
loss.backward()
report(traj=traj, x=x.detach(), loss=loss.item(), g=energy[0].bias.grad[:4])
