import torch
import torch.nn as nn

critic = det(nn.Sequential(nn.Linear(3, 5), nn.LeakyReLU(0.2), nn.Linear(5, 1)))
opt = torch.optim.RMSprop(critic.parameters(), lr=5e-3)
real, fake = data(6, 3), data(6, 3, seed=4)
for _ in range(3):
    opt.zero_grad()
    loss = -(critic(real).mean() - critic(fake).mean())
    loss.backward()
    opt.step()
    for p in critic.parameters():
        p.data.clamp_(-0.25, 0.25)
w = critic[0].weight
w.data = w.data * 2
t = torch.ones(3, requires_grad=True)
d = t.detach()
d.add_(1)
v = t.data
v.mul_(3)
z = torch.zeros(4)
z.requires_grad_()
q = (z * 2).detach_()
report(loss=loss.item(), w=critic[0].weight, b=critic[2].bias, t=t, rg=[d.requires_grad, v.requires_grad, z.requires_grad, q.requires_grad])
