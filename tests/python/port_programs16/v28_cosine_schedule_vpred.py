import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def cosine_beta_schedule(T, s=0.008):
    steps = T + 1
    x = torch.linspace(0, T, steps, dtype=torch.float64)
    ac = torch.cos(((x / T) + s) / (1 + s) * math.pi * 0.5) ** 2
    ac = ac / ac[0]
    betas = 1 - (ac[1:] / ac[:-1])
    return torch.clip(betas, 0, 0.999)


T = 20
betas = cosine_beta_schedule(T).float()
alphas_cumprod = torch.cumprod(1.0 - betas, dim=0)
sqrt_ac, sqrt_1mac = alphas_cumprod.sqrt(), (1 - alphas_cumprod).sqrt()
net = det(nn.Sequential(nn.Linear(5, 16), nn.SiLU(), nn.Linear(16, 4)))
opt = torch.optim.Adam(net.parameters(), lr=2e-3)
x0 = data(8, 4)
noise = data(8, 4, seed=9)
t = torch.tensor([0, 3, 7, 19, 10, 5, 12, 1])
for _ in range(5):
    a = sqrt_ac.gather(0, t).view(-1, 1)
    s = sqrt_1mac[t].unsqueeze(1)
    xt = a * x0 + s * noise
    v = a * noise - s * x0
    pred = net(torch.cat([xt, (t.float() / T).unsqueeze(1)], 1))
    loss = F.mse_loss(pred, v)
    opt.zero_grad()
    loss.backward()
    opt.step()
x0_hat = a * xt - s * pred.detach()
report(betas=betas[::5], ac=alphas_cumprod[-3:], loss=loss.item(), x0_err=(x0_hat - x0).abs().mean().item())
