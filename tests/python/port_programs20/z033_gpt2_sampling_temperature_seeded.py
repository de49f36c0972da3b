import torch
import torch.nn as nn
import torch.nn.functional as F


class Tiny(nn.Module):
    def __init__(self, v=12, d=8):
        super().__init__()
        self.emb = nn.Embedding(v, d)
        self.pos = nn.Embedding(16, d)
        layer = nn.TransformerEncoderLayer(d, 2, 16, dropout=0.0, batch_first=True, norm_first=True, activation="gelu")
        self.tr = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.head = nn.Linear(d, v)

    def forward(self, idx):
        T = idx.size(1)
        mask = nn.Transformer.generate_square_subsequent_mask(T)
        h = self.emb(idx) + self.pos(torch.arange(T))
        return self.head(self.tr(h, mask=mask, is_causal=True))


@torch.no_grad()
def generate(model, idx, n, temperature=1.0, top_k=None):
    for _ in range(n):
        logits = model(idx)[:, -1, :] / temperature
        if top_k is not None:
            v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
            logits[logits < v[:, [-1]]] = -float("Inf")
        probs = F.softmax(logits, dim=-1)
        nxt = torch.argmax(probs, dim=-1, keepdim=True)
        idx = torch.cat((idx, nxt), dim=1)
    return idx, probs


m = det(Tiny(), scale=0.3).eval()
out, probs = generate(m, torch.tensor([[1, 2], [3, 4]]), 4, temperature=0.8, top_k=3)
mask = nn.Transformer.generate_square_subsequent_mask(3)
report(out=out, probs=probs, nz=(probs > 0).sum(-1), mask=mask)
