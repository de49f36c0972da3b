import math
import torch
import torch.nn as nn

def timestep_embedding(timesteps, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half).to(device=timesteps.device)
    args = timesteps[:, None].float() * freqs[None]
    embedding = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if dim % 2:
        embedding = torch.cat([embedding, torch.zeros_like(embedding[:, :1])], dim=-1)
    return embedding

class SinusoidalPosEmb(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        half_dim = self.dim // 2
        emb = math.log(10000) / (half_dim - 1)
        emb = torch.exp(torch.arange(half_dim, device=x.device) * -emb)
        emb = x[:, None] * emb[None, :]
        return torch.cat((emb.sin(), emb.cos()), dim=-1)

t = torch.tensor([0, 1, 10, 999])
e = timestep_embedding(t, 8)
e7 = timestep_embedding(t, 7)
p = SinusoidalPosEmb(8)(t.float())
mlp = det(nn.Sequential(SinusoidalPosEmb(8), nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 16)), seed=20)
report(e=e, e7=e7[2], p=p, mlp=mlp(t.float())[3], dtype=(torch.arange(4) * -0.5).dtype)
