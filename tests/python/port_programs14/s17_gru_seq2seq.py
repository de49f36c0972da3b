import torch
import torch.nn as nn


class Enc(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(12, 6)
        self.gru = nn.GRU(6, 8, batch_first=False)

    def forward(self, src):
        return self.gru(self.emb(src))


class Dec(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(12, 6)
        self.cell = nn.GRUCell(6 + 8, 8)
        self.out = nn.Linear(8, 12)

    def forward(self, tok, h, ctx):
        h = self.cell(torch.cat([self.emb(tok), ctx], -1), h)
        return self.out(h), h


enc, dec = det(Enc(), 0), det(Dec(), 1)
src = ints(12, 5, 2)
tgt = ints(12, 4, 2, seed=4)
opt = torch.optim.Adagrad(list(enc.parameters()) + list(dec.parameters()), lr=0.1, lr_decay=0.01, initial_accumulator_value=0.1)
losses = []
for epoch in range(3):
    opt.zero_grad()
    outs, h = enc(src)
    ctx = outs.mean(0)
    h = h[0]
    tok = torch.zeros(2, dtype=torch.long)
    loss = 0
    for t in range(tgt.size(0)):
        logits, h = dec(tok, h, ctx)
        loss = loss + nn.functional.cross_entropy(logits, tgt[t])
        tok = tgt[t]
    loss.backward()
    nn.utils.clip_grad_norm_(list(enc.parameters()) + list(dec.parameters()), max_norm=1.0)
    opt.step()
    losses.append(loss.item() / tgt.size(0))
with torch.no_grad():
    outs, h = enc(src)
    tok, h, gen = torch.zeros(2, dtype=torch.long), h[0], []
    for _ in range(4):
        logits, h = dec(tok, h, outs.mean(0))
        tok = logits.argmax(-1)
        gen.append(tok)
report(losses=losses, gen=torch.stack(gen, 1))
