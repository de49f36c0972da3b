import torch
import torch.nn.functional as F


def rel_shift(x):
    b, h, q, k = x.size()
    zero_pad = torch.zeros((b, h, q, 1), device=x.device, dtype=x.dtype)
    x_padded = torch.cat([zero_pad, x], dim=-1)
    x_padded = x_padded.view(b, h, k + 1, q)
    return x_padded[:, :, 1:].view_as(x)


def sinusoid(pos, d):
    inv = 1 / (10000 ** (torch.arange(0.0, d, 2.0) / d))
    s = torch.ger(pos, inv)
    return torch.cat([s.sin(), s.cos()], dim=-1)


T, d, H = 4, 6, 2
q = data(1, H, T, d)
k = data(1, H, T, d, seed=2)
u = data(H, d, seed=3) * 0.1
r = sinusoid(torch.arange(T - 1, -1, -1.0), d)
ac = torch.einsum("bhid,bhjd->bhij", q + u[None, :, None], k)
bd = rel_shift(torch.einsum("bhid,jd->bhij", q, r))
scores = (ac + bd) / d ** 0.5
mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
attn = F.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
report(shift=rel_shift(torch.arange(16.0).view(1, 1, 4, 4))[0, 0], attn=attn[0, 1], r=r[1])
