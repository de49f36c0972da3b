import torch
import torch.nn as nn
import torch.nn.functional as F
def precompute_freqs(dim, end, theta=10000.0):
    freqs = 1.0 / (theta ** (torch.arange(0, dim, 2)[: (dim // 2)].float() / dim))
    t = torch.arange(end, device=freqs.device)
    freqs = torch.outer(t, freqs).float()
    return torch.cos(freqs), torch.sin(freqs)
def rotate_half(x):
    x1 = x[..., : x.shape[-1] // 2]; x2 = x[..., x.shape[-1] // 2:]
    return torch.cat((-x2, x1), dim=-1)
def apply_rope(q, k, cos, sin):
    cos = torch.cat([cos, cos], -1)[None, :, None, :]; sin = torch.cat([sin, sin], -1)[None, :, None, :]
    return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
def repeat_kv(x, n_rep):
    bs, slen, n_kv_heads, head_dim = x.shape
    if n_rep == 1: return x
    return x[:, :, :, None, :].expand(bs, slen, n_kv_heads, n_rep, head_dim).reshape(bs, slen, n_kv_heads * n_rep, head_dim)
class RMSNorm(torch.nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__(); self.eps = eps; self.weight = nn.Parameter(torch.ones(dim))
    def _norm(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)
    def forward(self, x):
        return self._norm(x.float()).type_as(x) * self.weight
class Attention(nn.Module):
    def __init__(self, dim=16, n_heads=4, n_kv_heads=2):
        super().__init__()
        self.n_heads = n_heads; self.n_kv = n_kv_heads; self.hd = dim // n_heads
        self.wq = nn.Linear(dim, n_heads * self.hd, bias=False); self.wk = nn.Linear(dim, n_kv_heads * self.hd, bias=False)
        self.wv = nn.Linear(dim, n_kv_heads * self.hd, bias=False); self.wo = nn.Linear(n_heads * self.hd, dim, bias=False)
    def forward(self, x, cos, sin, mask):
        B, L, _ = x.shape
        xq, xk, xv = self.wq(x).view(B, L, self.n_heads, self.hd), self.wk(x).view(B, L, self.n_kv, self.hd), self.wv(x).view(B, L, self.n_kv, self.hd)
        xq, xk = apply_rope(xq, xk, cos, sin)
        keys = repeat_kv(xk, self.n_heads // self.n_kv); values = torch.repeat_interleave(xv, self.n_heads // self.n_kv, dim=2)
        xq, keys, values = xq.transpose(1, 2), keys.transpose(1, 2), values.transpose(1, 2)
        scores = torch.matmul(xq, keys.transpose(2, 3)) / (self.hd ** 0.5) + mask
        scores = F.softmax(scores.float(), dim=-1).type_as(xq)
        return self.wo(torch.matmul(scores, values).transpose(1, 2).contiguous().view(B, L, -1))
class FeedForward(nn.Module):
    def __init__(self, dim=16, hidden=24):
        super().__init__(); self.w1 = nn.Linear(dim, hidden, bias=False); self.w2 = nn.Linear(hidden, dim, bias=False); self.w3 = nn.Linear(dim, hidden, bias=False)
    def forward(self, x):
        return self.w2(F.silu(self.w1(x)) * self.w3(x))
class Llama(nn.Module):
    def __init__(self, V=20):
        super().__init__()
        self.tok = nn.Embedding(V, 16); self.layers = nn.ModuleList()
        for _ in range(2):
            blk = nn.ModuleDict(dict(attention_norm=RMSNorm(16), attention=Attention(), ffn_norm=RMSNorm(16), feed_forward=FeedForward()))
            self.layers.append(blk)
        self.norm = RMSNorm(16); self.output = nn.Linear(16, V, bias=False)
        cos, sin = precompute_freqs(4, 32)
        self.register_buffer("cos", cos, persistent=False); self.register_buffer("sin", sin, persistent=False)
    def forward(self, tokens):
        B, L = tokens.shape
        h = self.tok(tokens)
        mask = torch.full((L, L), float("-inf"))
        mask = torch.triu(mask, diagonal=1)
        for l in self.layers:
            h = h + l["attention"](l["attention_norm"](h), self.cos[:L], self.sin[:L], mask)
            h = h + l["feed_forward"](l["ffn_norm"](h))
        return self.output(self.norm(h)).float()
model = det(Llama(), scale=0.3)
tok = ints(20, 2, 7)
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, fused=None)
losses = []
for _ in range(5):
    logits = model(tok[:, :-1])
    loss = F.cross_entropy(logits.view(-1, logits.size(-1)), tok[:, 1:].reshape(-1))
    opt.zero_grad(set_to_none=True); loss.backward(); opt.step(); losses.append(loss.item())
report(losses=losses, mask=torch.triu(torch.full((3, 3), float("-inf")), diagonal=1), cos=model.cos[3], last=logits[1, -1])
