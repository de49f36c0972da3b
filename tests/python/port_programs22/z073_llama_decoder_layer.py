import torch
import torch.nn as nn
import torch.nn.functional as F

class RMSNorm(nn.Module):
    def __init__(self, d, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(d))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.weight

def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)

class Block(nn.Module):
    def __init__(self, d=8, h=4, kv=2):
        super().__init__()
        self.h, self.kv, self.dh = h, kv, d // h
        self.q_proj = nn.Linear(d, h * self.dh, bias=False)
        self.k_proj = nn.Linear(d, kv * self.dh, bias=False)
        self.v_proj = nn.Linear(d, kv * self.dh, bias=False)
        self.o_proj = nn.Linear(d, d, bias=False)
        self.gate = nn.Linear(d, 12, bias=False)
        self.up = nn.Linear(d, 12, bias=False)
        self.down = nn.Linear(12, d, bias=False)
        self.n1, self.n2 = RMSNorm(d), RMSNorm(d)
        inv = 1.0 / (10000 ** (torch.arange(0, self.dh, 2).float() / self.dh))
        self.register_buffer("inv_freq", inv, persistent=False)

    def forward(self, x):
        b, t, d = x.shape
        h = self.n1(x)
        q = self.q_proj(h).view(b, t, self.h, self.dh).transpose(1, 2)
        k = self.k_proj(h).view(b, t, self.kv, self.dh).transpose(1, 2)
        v = self.v_proj(h).view(b, t, self.kv, self.dh).transpose(1, 2)
        f = torch.einsum("i,j->ij", torch.arange(t).float(), self.inv_freq)
        emb = torch.cat((f, f), dim=-1)
        cos, sin = emb.cos()[None, None], emb.sin()[None, None]
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        k = k.repeat_interleave(self.h // self.kv, dim=1)
        v = v.repeat_interleave(self.h // self.kv, dim=1)
        a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o_proj(a.transpose(1, 2).reshape(b, t, d))
        h = self.n2(x)
        return x + self.down(F.silu(self.gate(h)) * self.up(h))

blk = det(Block(), seed=90)
x = data(2, 5, 8, seed=91)
opt = torch.optim.AdamW(blk.parameters(), lr=3e-3)
ls = []
for _ in range(3):
    y = blk(x)
    loss = (y - x.roll(-1, dims=1)).pow(2).mean()
    opt.zero_grad()
    loss.backward()
    ls.append(loss.item())
    opt.step()
report(ls=ls, y=y[1, 4], buffers=[n for n, _ in blk.named_buffers()], sd_has=("inv_freq" in blk.state_dict()))
