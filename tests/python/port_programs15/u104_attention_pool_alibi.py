import math
import torch
import torch.nn as nn
import torch.nn.functional as F


def alibi_slopes(n):
    start = 2 ** (-(2 ** -(math.log2(n) - 3)))
    return torch.tensor([start * start ** i for i in range(n)])


def alibi_bias(n_heads, T):
    pos = torch.arange(T)
    rel = pos[None, :] - pos[:, None]
    return alibi_slopes(n_heads)[:, None, None] * rel[None].float()


class AttnPool(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.query = nn.Parameter(torch.zeros(d))
        self.key = nn.Linear(d, d)

    def forward(self, x, mask):
        s = self.key(x) @ self.query / math.sqrt(x.size(-1))
        s = s.masked_fill(~mask, torch.finfo(s.dtype).min)
        a = s.softmax(-1)
        return torch.einsum("bt,btd->bd", a, x), a


H, T, D = 4, 5, 8
bias = alibi_bias(H, T)
q = data(1, H, T, D // 2)
k = data(1, H, T, D // 2, seed=2)
v = data(1, H, T, D // 2, seed=3)
causal = torch.ones(T, T, dtype=torch.bool).tril()
m = bias.masked_fill(~causal, float("-inf")).unsqueeze(0)
out = F.scaled_dot_product_attention(q, k, v, attn_mask=m)
pool = det(AttnPool(D))
x = data(2, T, D, seed=4)
mask = torch.tensor([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], dtype=torch.bool)
pooled, a = pool(x, mask)
report(slopes=alibi_slopes(H), bias=bias[1, 4], out=out[0, 2, 3], pooled=pooled, a=a, finfo=torch.finfo(torch.float32).min)
