import torch
import torch.nn as nn
import torch.nn.functional as F

def exists(val):
    return val is not None

def default(val, d):
    return val if exists(val) else d

class RMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.scale = dim ** 0.5
        self.gamma = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return F.normalize(x, dim=-1) * self.scale * self.gamma

class Attention(nn.Module):
    def __init__(self, dim, heads=2, dim_head=4):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        inner = heads * dim_head
        self.norm = RMSNorm(dim)
        self.to_q = nn.Linear(dim, inner, bias=False)
        self.to_kv = nn.Linear(dim, inner * 2, bias=False)
        self.to_out = nn.Linear(inner, dim, bias=False)

    def forward(self, x, context=None, mask=None):
        h = self.heads
        x = self.norm(x)
        context = default(context, x)
        q, k, v = (self.to_q(x), *self.to_kv(context).chunk(2, dim=-1))
        q, k, v = map(lambda t: t.reshape(t.shape[0], t.shape[1], h, -1).permute(0, 2, 1, 3), (q, k, v))
        q = q * self.scale
        sim = torch.einsum("b h i d, b h j d -> b h i j", q, k)
        if exists(mask):
            sim = sim.masked_fill(~mask[:, None, None, :], -torch.finfo(sim.dtype).max)
        attn = sim.softmax(dim=-1)
        out = torch.einsum("b h i j, b h j d -> b h i d", attn, v)
        out = out.permute(0, 2, 1, 3).reshape(out.shape[0], out.shape[2], -1)
        return self.to_out(out)

attn = det(Attention(6), seed=97)
x = data(2, 4, 6, seed=98)
mask = torch.tensor([[True, True, True, False], [True, False, False, False]])
y = attn(x, mask=mask)
y.sum().backward()
report(y=y[1], g=attn.norm.gamma.grad, ctx=attn(x, context=data(2, 3, 6, seed=99))[0, 0], neg_max=-torch.finfo(torch.float32).max)
