import math
import torch

T = 10
betas = torch.linspace(1e-4, 0.02, T)
alphas = 1.0 - betas
abar = torch.cumprod(alphas, dim=0)
x0 = data(2, 3, seed=1)
noise = data(2, 3, seed=2)
t = torch.tensor([3, 7])
xt = abar[t].sqrt()[:, None] * x0 + (1 - abar[t]).sqrt()[:, None] * noise
eps = noise
x0_pred = (xt - (1 - abar[t]).sqrt()[:, None] * eps) / abar[t].sqrt()[:, None]
prev = abar[t - 1]
x_prev = prev.sqrt()[:, None] * x0_pred + (1 - prev).sqrt()[:, None] * eps
def cosine(tt, s=0.008):
    return torch.cos((tt / T + s) / (1 + s) * math.pi / 2) ** 2
ac = cosine(torch.arange(T + 1).float()) / cosine(torch.tensor(0.0))
report(abar=abar, xt=xt, x0=torch.allclose(x0_pred, x0, atol=1e-5), x_prev=x_prev, ac=ac)
