import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(), nn.Linear(4 * d, d))
        self.h = h

    def forward(self, x, mask):
        B, T, C = x.shape
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q, k, v = [t.view(B, T, self.h, C // self.h).transpose(1, 2) for t in (q, k, v)]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        x = x + self.proj(y.transpose(1, 2).contiguous().view(B, T, C))
        return x + self.mlp(self.ln2(x))


class GPT(nn.Module):
    def __init__(self, v=15, d=8):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(v, d), nn.Embedding(32, d)
        self.blocks = nn.ModuleList([Block(d, 2) for _ in range(2)])
        self.ln_f = nn.LayerNorm(d)

    def forward(self, ids, attention_mask):
        T = ids.size(1)
        position_ids = (attention_mask.long().cumsum(-1) - 1).clamp(min=0)
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        mask = causal[None, None] & attention_mask[:, None, None, :].bool()
        mask = mask | torch.eye(T, dtype=torch.bool)[None, None]
        x = self.wte(ids) + self.wpe(position_ids)
        for b in self.blocks:
            x = b(x, mask)
        return self.ln_f(x) @ self.wte.weight.T


m = det(GPT(), scale=0.3).eval()
pad = 0
ids = torch.tensor([[pad, pad, 3, 4], [5, 6, 7, 8]])
am = (ids != pad).long()
with torch.no_grad():
    for _ in range(3):
        logits = m(ids, am)
        nxt = logits[:, -1].argmax(-1, keepdim=True)
        ids = torch.cat([ids, nxt], 1)
        am = torch.cat([am, torch.ones_like(nxt)], 1)
    alone = m(torch.tensor([[3, 4]]), torch.ones(1, 2, dtype=torch.long))
report(ids=ids, am=am, logits=logits[:, -1], alone=alone[0, -1])
