import torch
import torch.nn as nn
import torch.nn.functional as F

class LM(nn.Module):
    def __init__(self, v=13, d=8):
        super().__init__()
        self.emb = nn.Embedding(v, d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.out = nn.Linear(d, v, bias=False)

    def forward(self, ids, cache=None):
        h = self.emb(ids)
        q, k, v = self.qkv(h).chunk(3, dim=-1)
        if cache is not None:
            k = torch.cat([cache[0], k], 1)
            v = torch.cat([cache[1], v], 1)
        t, s = q.shape[1], k.shape[1]
        mask = torch.ones(t, s, dtype=torch.bool).tril(diagonal=s - t)
        a = F.scaled_dot_product_attention(q.unsqueeze(1), k.unsqueeze(1), v.unsqueeze(1), attn_mask=mask).squeeze(1)
        return self.out(h + a), (k, v)

lm = det(LM(), seed=170, scale=0.7).eval()
ids = torch.tensor([[1, 5, 2]])
with torch.no_grad():
    logits, cache = lm(ids)
    out = ids
    chosen = []
    for _ in range(5):
        nl = logits[:, -1] / 0.8
        kth = torch.topk(nl, 5).values[:, -1:]
        nl = nl.masked_fill(nl < kth, float("-inf"))
        sl, si = nl.sort(descending=True)
        cp = sl.softmax(-1).cumsum(-1)
        rm = cp > 0.9
        rm[:, 1:] = rm[:, :-1].clone()
        rm[:, 0] = False
        nl = nl.masked_fill(rm.scatter(1, si, rm), float("-inf"))
        nxt = nl.argmax(-1, keepdim=True)
        chosen.append(int(torch.isfinite(nl).sum()))
        out = torch.cat([out, nxt], 1)
        logits, cache = lm(nxt, cache)
    full, _ = lm(out)
report(out=out, kept=chosen, cache=cache[0].shape, last=logits[0, -1], full_last=full[0, -1])
