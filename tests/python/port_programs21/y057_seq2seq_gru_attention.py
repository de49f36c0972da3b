import torch
import torch.nn as nn
import torch.nn.functional as F
# TOL 1e-3


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(12, 6)
        self.rnn = nn.GRU(6, 8, batch_first=True, bidirectional=True)
        self.fc = nn.Linear(16, 8)

    def forward(self, x):
        out, h = self.rnn(self.emb(x))
        h = torch.tanh(self.fc(torch.cat([h[-2], h[-1]], dim=1)))
        return out, h


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.emb = nn.Embedding(12, 6)
        self.attn = nn.Linear(16 + 8, 8)
        self.v = nn.Linear(8, 1, bias=False)
        self.rnn = nn.GRU(6 + 16, 8, batch_first=True)
        self.out = nn.Linear(8, 12)

    def forward(self, tok, h, enc):
        e = torch.tanh(self.attn(torch.cat([h.unsqueeze(1).repeat(1, enc.size(1), 1), enc], dim=2)))
        a = F.softmax(self.v(e).squeeze(2), dim=1)
        ctx = torch.bmm(a.unsqueeze(1), enc)
        o, h2 = self.rnn(torch.cat([self.emb(tok).unsqueeze(1), ctx], dim=2), h.unsqueeze(0))
        return self.out(o.squeeze(1)), h2.squeeze(0), a


enc, dec = det(Encoder(), seed=1), det(Decoder(), seed=2)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=5e-3)
src, tgt = ints(12, 3, 5, seed=3), ints(12, 3, 4, seed=4)
hist = []
for _ in range(3):
    out, h = enc(src)
    tok = tgt[:, 0]
    loss = 0
    for t in range(1, 4):
        logits, h, a = dec(tok, h, out)
        loss = loss + F.cross_entropy(logits, tgt[:, t])
        tok = tgt[:, t]
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(list(enc.parameters()) + list(dec.parameters()), 1.0)
    opt.step()
    hist.append(loss.item())
report(hist=hist, a=a.detach())
