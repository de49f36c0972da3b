# TOL 1e-3
import copy
import math
import torch
import torch.nn as nn
import torch.nn.functional as F

T = 16
betas = torch.linspace(1e-3, 0.1, T)
alphas = 1 - betas
ac = torch.cumprod(alphas, 0)

def temb(t, dim=4):
    half = dim // 2
    f = torch.exp(-math.log(10000) * torch.arange(half) / half)
    a = t[:, None].float() * f[None]
    return torch.cat([a.sin(), a.cos()], -1)

class Eps(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 + 4, 32), nn.SiLU(), nn.Linear(32, 32), nn.SiLU(), nn.Linear(32, 2))

    def forward(self, x, t):
        return self.net(torch.cat([x, temb(t)], -1))

model = det(Eps(), seed=177)
ema = copy.deepcopy(model).requires_grad_(False)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
ls = []
for step in range(10):
    x0 = data(16, 2, seed=600 + step) * 0.3 + torch.tensor([1.0, -1.0])
    t = ints(T, 16, seed=700 + step)
    noise = data(16, 2, seed=800 + step)
    a = ac.gather(0, t).unsqueeze(-1)
    loss = F.mse_loss(model(a.sqrt() * x0 + (1 - a).sqrt() * noise, t), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        for pe, pm in zip(ema.parameters(), model.parameters()):
            pe.lerp_(pm, 0.1)
    ls.append(loss.item())
x = data(5, 2, seed=900)
with torch.no_grad():
    for i in reversed(range(T)):
        t = torch.full((5,), i, dtype=torch.long)
        eps = ema(x, t)
        x = (x - betas[i] / (1 - ac[i]).sqrt() * eps) / alphas[i].sqrt()
        if i > 0:
            x = x + betas[i].sqrt() * data(5, 2, seed=1000 + i)
report(ls=ls, x=x, req=any(p.requires_grad for p in ema.parameters()))
