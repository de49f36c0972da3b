import math
import torch
import torch.nn as nn


def timestep_embedding(t, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class FiLMBlock(nn.Module):
    def __init__(self, c, tdim):
        super().__init__()
        self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.norm = nn.GroupNorm(1, c)
        self.t = nn.Linear(tdim, 2 * c)

    def forward(self, x, temb):
        scale, shift = self.t(temb)[:, :, None, None].chunk(2, dim=1)
        return x + nn.functional.silu(self.norm(self.conv(x)) * (1 + scale) + shift)


emb = timestep_embedding(torch.tensor([0, 5, 999]), 6)
blk = det(FiLMBlock(2, 6), scale=0.3)
y = blk(data(3, 2, 4, 4, seed=1), emb)
report(emb=emb, y=y[2, 1, 0])
