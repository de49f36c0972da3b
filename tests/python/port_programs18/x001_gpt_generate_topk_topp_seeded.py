import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyLM(nn.Module):
    def __init__(self, vocab=11, d=8):
        super().__init__()
        self.wte = nn.Embedding(vocab, d)
        self.ln = nn.LayerNorm(d)
        self.lm_head = nn.Linear(d, vocab, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, ids):
        return self.lm_head(self.ln(self.wte(ids).cumsum(1)))


def top_k_top_p(logits, top_k=0, top_p=1.0, filter_value=-float("inf")):
    if top_k > 0:
        kth = torch.topk(logits, top_k)[0][..., -1, None]
        logits = logits.masked_fill(logits < kth, filter_value)
    if top_p < 1.0:
        sorted_logits, sorted_idx = torch.sort(logits, descending=True)
        cum = torch.cumsum(F.softmax(sorted_logits, dim=-1), dim=-1)
        remove = cum > top_p
        remove[..., 1:] = remove[..., :-1].clone()
        remove[..., 0] = False
        mask = remove.scatter(1, sorted_idx, remove)
        logits = logits.masked_fill(mask, filter_value)
    return logits


m = det(TinyLM())
ids = torch.tensor([[1, 2, 3], [4, 5, 6]])
filtered = []
for step in range(3):
    logits = m(ids)[:, -1, :]
    f = top_k_top_p(logits / 0.7, top_k=5, top_p=0.9)
    filtered.append(torch.isinf(f).sum(-1))
    nxt = f.argmax(-1, keepdim=True)
    ids = torch.cat([ids, nxt], dim=1)
g = torch.Generator().manual_seed(0)
probs = F.softmax(f, -1)
s = torch.multinomial(probs, 1, generator=g)
report(ids=ids, filtered=filtered, kept=(probs > 0).sum(-1), sample_in_support=bool((probs.gather(1, s) > 0).all()),
       tied=m.lm_head.weight is m.wte.weight, n_params=sum(p.numel() for p in m.parameters()))
