import math
import torch
import torch.nn as nn
import torch.nn.functional as F
def timestep_embedding(t, dim):
    half = dim // 2
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
class Block(nn.Module):
    def __init__(self, i, o, tdim):
        super().__init__(); self.n1 = nn.GroupNorm(2, i); self.c1 = nn.Conv2d(i, o, 3, padding=1); self.t = nn.Linear(tdim, o); self.n2 = nn.GroupNorm(2, o); self.c2 = nn.Conv2d(o, o, 3, padding=1)
        self.skip = nn.Conv2d(i, o, 1) if i != o else nn.Identity()
    def forward(self, x, temb):
        h = self.c1(F.silu(self.n1(x))) + self.t(F.silu(temb))[:, :, None, None]
        return self.skip(x) + self.c2(F.silu(self.n2(h)))
class TinyUNet(nn.Module):
    def __init__(self):
        super().__init__(); self.inc = nn.Conv2d(1, 4, 3, padding=1); self.d = Block(4, 8, 8); self.down = nn.Conv2d(8, 8, 3, stride=2, padding=1)
        self.mid = Block(8, 8, 8); self.u = Block(16, 4, 8); self.out = nn.Conv2d(4, 1, 3, padding=1)
    def forward(self, x, t):
        temb = timestep_embedding(t, 8)
        h1 = self.d(self.inc(x), temb)
        h = self.mid(self.down(h1), temb)
        h = F.interpolate(h, scale_factor=2, mode="nearest")
        return self.out(self.u(torch.cat([h, h1], dim=1), temb))
T = 50
betas = torch.linspace(1e-4, 0.02, T)
alphas = 1.0 - betas
alphas_cumprod = torch.cumprod(alphas, dim=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_ac = torch.sqrt(alphas_cumprod); sqrt_1mac = torch.sqrt(1.0 - alphas_cumprod)
posterior_var = betas * (1.0 - alphas_cumprod_prev) / (1.0 - alphas_cumprod)
def extract(a, t, x_shape):
    out = a.gather(-1, t)
    return out.reshape(t.shape[0], *((1,) * (len(x_shape) - 1)))
model = det(TinyUNet(), scale=0.2)
opt = torch.optim.AdamW(model.parameters(), lr=2e-3)
x0 = data(3, 1, 8, 8); noise = data(3, 1, 8, 8, seed=9); t = torch.tensor([3, 25, 49])
hist = []
for _ in range(4):
    xt = extract(sqrt_ac, t, x0.shape) * x0 + extract(sqrt_1mac, t, x0.shape) * noise
    opt.zero_grad(); loss = F.mse_loss(model(xt, t), noise); loss.backward(); opt.step(); hist.append(loss.item())
with torch.no_grad():
    eps = model(xt, t)
    mean = (1 / torch.sqrt(extract(alphas, t, xt.shape))) * (xt - extract(betas, t, xt.shape) / extract(sqrt_1mac, t, xt.shape) * eps)
report(hist=hist, pv=posterior_var[[1, 10, 49]], ac=alphas_cumprod[-1], mean=mean[0, 0, 0], temb=timestep_embedding(torch.tensor([0, 7]), 8))
