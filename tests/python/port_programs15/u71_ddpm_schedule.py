import math
import torch
import torch.nn as nn


def cosine_beta_schedule(timesteps, s=0.008):
    steps = timesteps + 1
    x = torch.linspace(0, timesteps, steps, dtype=torch.float64)
    alphas_cumprod = torch.cos(((x / timesteps) + s) / (1 + s) * math.pi * 0.5) ** 2
    alphas_cumprod = alphas_cumprod / alphas_cumprod[0]
    betas = 1 - (alphas_cumprod[1:] / alphas_cumprod[:-1])
    return torch.clip(betas, 0.0001, 0.9999)


T = 20
betas = cosine_beta_schedule(T).float()
alphas = 1.0 - betas
acp = torch.cumprod(alphas, dim=0)
acp_prev = F_pad = torch.nn.functional.pad(acp[:-1], (1, 0), value=1.0)
sqrt_acp = acp.sqrt()
sqrt_1m = (1 - acp).sqrt()
post_var = betas * (1.0 - acp_prev) / (1.0 - acp)


def extract(a, t, shape):
    out = a.gather(-1, t)
    return out.reshape(t.shape[0], *((1,) * (len(shape) - 1)))


class Eps(nn.Module):
    def __init__(self):
        super().__init__()
        self.t_emb = nn.Embedding(T, 8)
        self.net = nn.Sequential(nn.Conv2d(1 + 8, 8, 3, padding=1), nn.SiLU(), nn.Conv2d(8, 1, 3, padding=1))

    def forward(self, x, t):
        e = self.t_emb(t)[:, :, None, None].expand(-1, -1, *x.shape[-2:])
        return self.net(torch.cat([x, e], 1))


x0 = data(4, 1, 6, 6)
t = torch.tensor([0, 5, 10, 19])
noise = data(4, 1, 6, 6, seed=7)
xt = extract(sqrt_acp, t, x0.shape) * x0 + extract(sqrt_1m, t, x0.shape) * noise
model = det(Eps(), scale=0.2)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
hist = []
for _ in range(3):
    loss = nn.functional.mse_loss(model(xt, t), noise)
    opt.zero_grad()
    loss.backward()
    opt.step()
    hist.append(loss.item())
with torch.no_grad():
    x = data(1, 1, 6, 6, seed=9)
    for i in reversed(range(0, T, 5)):
        tt = torch.full((1,), i, dtype=torch.long)
        eps = model(x, tt)
        mean = (x - betas[i] / sqrt_1m[i] * eps) / alphas[i].sqrt()
        x = mean + (post_var[i].sqrt() * data(1, 1, 6, 6, seed=100 + i) if i > 0 else 0)
report(betas=betas[::5], acp=acp[-1], post=post_var[:3], xt=xt[2, 0, 0], hist=hist, x=x[0, 0, 0])
