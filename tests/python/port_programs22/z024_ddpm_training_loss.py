import torch
import torch.nn as nn
import torch.nn.functional as F

T = 20
betas = torch.linspace(1e-4, 0.05, T)
ac = torch.cumprod(1.0 - betas, dim=0)
net = det(nn.Sequential(nn.Linear(4, 16), nn.SiLU(), nn.Linear(16, 3)), seed=26)
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
losses = []
for step in range(4):
    x0 = data(6, 3, seed=27 + step)
    t = ints(T, 6, seed=40 + step)
    noise = data(6, 3, seed=60 + step)
    a = ac[t].view(-1, 1)
    xt = a.sqrt() * x0 + (1 - a).sqrt() * noise
    pred = net(torch.cat([xt, (t.float() / T).unsqueeze(1)], dim=1))
    loss = F.mse_loss(pred, noise, reduction="none").mean(dim=list(range(1, len(pred.shape))))
    weights = 1.0 / (1 - a.squeeze(1))
    loss = (loss * weights).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
report(losses=losses, w=net[2].bias)
