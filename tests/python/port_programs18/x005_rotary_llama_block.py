import torch
import torch.nn as nn


class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        var = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(var + self.eps))


def rope_cache(T, d, base=10000.0):
    inv = 1.0 / (base ** (torch.arange(0, d, 2).float() / d))
    t = torch.arange(T, dtype=inv.dtype)
    freqs = torch.outer(t, inv)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)


x = data(2, 2, 5, 4, seed=7)
cos, sin = rope_cache(5, 4)
xr = x * cos + rotate_half(x) * sin
norm = det(RMSNorm(4), seed=2)
mlp_in = norm(xr)
gate, up = nn.Linear(4, 6, bias=False), nn.Linear(4, 6, bias=False)
det(gate, seed=3), det(up, seed=4)
act = nn.functional.silu(gate(mlp_in)) * up(mlp_in)
report(xr=xr[0, 0], norms_kept=torch.allclose(xr.norm(dim=-1), x.norm(dim=-1), atol=1e-5), act=act[1, 1], cos=cos[:, :2])
