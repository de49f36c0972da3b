import torch
import torch.nn as nn


class MiniBert(nn.Module):
    def __init__(self, v=20, d=8):
        super().__init__()
        self.tok = nn.Embedding(v, d)
        self.pos = nn.Embedding(16, d)
        self.typ = nn.Embedding(2, d)
        self.ln = nn.LayerNorm(d, eps=1e-12)
        layer = nn.TransformerEncoderLayer(d, 2, 16, dropout=0.0, activation="gelu", batch_first=True)
        self.enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.mlm = nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.LayerNorm(d, eps=1e-12), nn.Linear(d, v))

    def forward(self, ids, tt, am):
        pos = torch.arange(ids.size(1)).unsqueeze(0)
        h = self.ln(self.tok(ids) + self.pos(pos) + self.typ(tt))
        h = self.enc(h, src_key_padding_mask=am == 0)
        return self.mlm(h)


m = det(MiniBert(), scale=0.3)
ids = ints(16, 3, 7) + 4
am = torch.ones(3, 7, dtype=torch.long)
am[2, 5:] = 0
ids[2, 5:] = 0
tt = torch.zeros_like(ids)
tt[:, 4:] = 1
labels = ids.clone()
mask_pos = torch.tensor([[1, 0, 0, 1, 0, 0, 0], [0, 1, 0, 0, 0, 1, 0], [0, 0, 1, 0, 0, 0, 0]], dtype=torch.bool)
labels[~mask_pos] = -100
ids = ids.masked_fill(mask_pos, 3)
opt = torch.optim.AdamW(m.parameters(), lr=1e-3, weight_decay=0.01)
ls = []
for _ in range(3):
    opt.zero_grad()
    logits = m(ids, tt, am)
    loss = nn.functional.cross_entropy(logits.view(-1, 20), labels.view(-1), ignore_index=-100)
    loss.backward()
    opt.step()
    ls.append(loss.item())
report(ls=ls, n_masked=(labels != -100).sum(), pred=logits.argmax(-1)[mask_pos])
