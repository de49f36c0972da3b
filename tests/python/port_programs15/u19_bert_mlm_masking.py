import torch
import torch.nn as nn

VOCAB, MASK, PAD, CLS = 32, 3, 0, 1


class MiniBert(nn.Module):
    def __init__(self, d=16, heads=4, layers=2):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, d, padding_idx=PAD)
        self.pos = nn.Parameter(torch.zeros(1, 16, d))
        self.seg = nn.Embedding(2, d)
        self.norm = nn.LayerNorm(d, eps=1e-12)
        enc = nn.TransformerEncoderLayer(d, heads, 32, dropout=0.0, activation="gelu", batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(enc, layers)
        self.mlm = nn.Sequential(nn.Linear(d, d), nn.GELU(), nn.LayerNorm(d), nn.Linear(d, VOCAB))

    def forward(self, ids, seg):
        h = self.norm(self.tok(ids) + self.pos[:, : ids.size(1)] + self.seg(seg))
        h = self.encoder(h, src_key_padding_mask=ids.eq(PAD))
        return self.mlm(h)


ids = torch.tensor([[CLS, 5, 9, 12, 7, 30, 2, PAD], [CLS, 14, 8, 8, 21, 6, 0, 0]])
seg = torch.tensor([[0, 0, 0, 0, 1, 1, 1, 0], [0, 0, 0, 1, 1, 1, 0, 0]])
sel = torch.tensor([[0, 1, 0, 0, 1, 0, 0, 0], [0, 0, 1, 0, 0, 1, 0, 0]], dtype=torch.bool)
labels = ids.clone()
labels[~sel] = -100
inp = ids.masked_fill(sel, MASK)
model = det(MiniBert(), scale=0.2)
opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01, betas=(0.9, 0.98), eps=1e-6)
sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / 2))
ls = []
for step in range(3):
    out = model(inp, seg)
    loss = nn.functional.cross_entropy(out.view(-1, VOCAB), labels.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    ls.append(loss.item())
acc = (out.argmax(-1)[sel] == ids[sel]).float().mean()
report(ls=ls, acc=acc, lr=sched.get_last_lr(), nmask=int(sel.sum()), masked_ids=inp[sel])
