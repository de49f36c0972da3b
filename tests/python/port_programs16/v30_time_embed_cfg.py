import math
import torch
import torch.nn as nn


def timestep_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if dim % 2:
        emb = torch.cat([emb, torch.zeros_like(emb[:, :1])], dim=-1)
    return emb


class Denoiser(nn.Module):
    def __init__(self, d=4, n_cls=3):
        super().__init__()
        self.cls = nn.Embedding(n_cls + 1, 7)
        self.t = nn.Sequential(nn.Linear(7, 7), nn.SiLU())
        self.net = nn.Sequential(nn.Linear(d + 7, 16), nn.Mish(), nn.Linear(16, d))

    def forward(self, x, t, c):
        return self.net(torch.cat([x, self.t(timestep_embedding(t, 7)) + self.cls(c)], -1))


m = det(Denoiser())
x, t = data(3, 4), torch.tensor([1, 10, 100])
c = torch.tensor([0, 2, 1])
null = torch.full_like(c, 3)
with torch.inference_mode():
    cond, uncond = m(torch.cat([x, x]), torch.cat([t, t]), torch.cat([c, null])).chunk(2)
    guided = uncond + 4.0 * (cond - uncond)
report(emb=timestep_embedding(torch.tensor([0, 5]), 7), guided=guided, rg=guided.requires_grad, mode=torch.is_inference_mode_enabled())
