import torch
import torch.nn as nn


class Enc(nn.Module):
    def __init__(self, v, h):
        super().__init__()
        self.emb = nn.Embedding(v, h)
        self.gru = nn.GRU(h, h, batch_first=True)

    def forward(self, x):
        return self.gru(self.emb(x))


class Dec(nn.Module):
    def __init__(self, v, h):
        super().__init__()
        self.emb = nn.Embedding(v, h)
        self.gru = nn.GRU(h, h, batch_first=True)
        self.out = nn.Linear(h, v)

    def forward(self, tok, hid):
        o, hid = self.gru(torch.relu(self.emb(tok)), hid)
        return nn.functional.log_softmax(self.out(o.squeeze(1)), dim=-1), hid


enc, dec = det(Enc(9, 6)), det(Dec(9, 6), seed=1)
src, tgt = ints(9, 2, 5), ints(9, 2, 4, seed=3)
opt = torch.optim.SGD(list(enc.parameters()) + list(dec.parameters()), lr=0.1)
crit = nn.NLLLoss()
ls = []
for it in range(3):
    opt.zero_grad()
    _, h = enc(src)
    tok = torch.zeros(2, 1, dtype=torch.long)
    loss = 0
    for t in range(4):
        lp, h = dec(tok, h)
        loss += crit(lp, tgt[:, t])
        tok = tgt[:, t].unsqueeze(1) if it % 2 == 0 else lp.argmax(1, keepdim=True).detach()
    loss.backward()
    opt.step()
    ls.append(loss.item() / 4)
report(ls=ls, h=h)
