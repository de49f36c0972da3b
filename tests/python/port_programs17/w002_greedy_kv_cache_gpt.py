import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.ln1 = nn.LayerNorm(d, eps=1e-5)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d, eps=1e-5)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate="tanh"), nn.Linear(4 * d, d))

    def forward(self, x, past=None):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q = q.view(B, T, self.h, C // self.h).transpose(1, 2)
        k = k.view(B, T, self.h, C // self.h).transpose(1, 2)
        v = v.view(B, T, self.h, C // self.h).transpose(1, 2)
        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)
        att = F.scaled_dot_product_attention(q, k, v, is_causal=past is None)
        y = att.transpose(1, 2).contiguous().view(B, T, C)
        x = x + self.proj(y)
        x = x + self.mlp(self.ln2(x))
        return x, (k, v)


class GPT(nn.Module):
    def __init__(self, vocab=11, d=8, h=2, n=2, ctx=16):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.wpe = nn.Embedding(ctx, d)
        self.blocks = nn.ModuleList(Block(d, h) for _ in range(n))
        self.ln_f = nn.LayerNorm(d)
        self.head = nn.Linear(d, vocab, bias=False)
        self.head.weight = self.wte.weight

    def forward(self, idx, past=None, start=0):
        pos = torch.arange(start, start + idx.size(1))
        x = self.wte(idx) + self.wpe(pos)
        new = []
        for i, b in enumerate(self.blocks):
            x, kv = b(x, None if past is None else past[i])
            new.append(kv)
        return self.head(self.ln_f(x)), new


torch.manual_seed(0)
m = det(GPT(), scale=0.5).eval()
idx = torch.tensor([[1, 2, 3], [4, 5, 6]])
with torch.no_grad():
    full = idx
    for _ in range(4):
        logits, _ = m(full)
        full = torch.cat([full, logits[:, -1].argmax(-1, keepdim=True)], 1)
    logits, past = m(idx)
    cached = idx
    nxt = logits[:, -1].argmax(-1, keepdim=True)
    for step in range(4):
        cached = torch.cat([cached, nxt], 1)
        lg, past = m(nxt, past, start=cached.size(1) - 1)
        nxt = lg[:, -1].argmax(-1, keepdim=True)
report(full=full, cached=cached[:, :7], same=torch.equal(full, cached[:, :7]), tied=m.head.weight is m.wte.weight,
       nparams=sum(p.numel() for p in m.parameters()), kshape=list(past[0][0].shape))
