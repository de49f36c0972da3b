import torch
import torch.nn as nn

G = det(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2)), seed=1)
D = det(nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1)), seed=2)
opt_g = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
opt_d = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
crit = nn.BCEWithLogitsLoss()
real = data(8, 2, seed=3) * 0.5 + 1.0
d_losses, g_losses = [], []
for step in range(5):
    z = data(8, 4, seed=10 + step)
    fake = G(z)
    opt_d.zero_grad()
    d_real = D(real)
    d_fake = D(fake.detach())
    loss_d = crit(d_real, torch.ones_like(d_real)) + crit(d_fake, torch.zeros_like(d_fake))
    loss_d.backward()
    opt_d.step()
    opt_g.zero_grad()
    out = D(fake)
    loss_g = crit(out, torch.ones_like(out))
    loss_g.backward()
    opt_g.step()
    d_losses.append(loss_d.item())
    g_losses.append(loss_g.item())
report(d=d_losses, g=g_losses, g_grad_none=G[0].weight.grad is None, fake_req=fake.detach().requires_grad,
       sample=G(data(2, 4, seed=99)))
