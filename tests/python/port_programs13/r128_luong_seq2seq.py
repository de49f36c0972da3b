import torch
import torch.nn as nn
import torch.nn.functional as F
class Encoder(nn.Module):
    def __init__(self, V=10, H=6):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.gru = nn.GRU(H, H, batch_first=True)
    def forward(self, x):
        return self.gru(self.emb(x))
class LuongDecoder(nn.Module):
    def __init__(self, V=10, H=6):
        super().__init__()
        self.emb = nn.Embedding(V, H)
        self.gru = nn.GRU(H, H, batch_first=True)
        self.W = nn.Linear(H, H, bias=False)
        self.concat = nn.Linear(2 * H, H)
        self.out = nn.Linear(H, V)
    def forward(self, y, h, enc):
        o, h = self.gru(self.emb(y).unsqueeze(1), h)
        score = torch.bmm(self.W(o), enc.transpose(1, 2))
        attn = F.softmax(score, dim=-1)
        ctx = torch.bmm(attn, enc)
        cat = torch.tanh(self.concat(torch.cat([o, ctx], -1)))
        return F.log_softmax(self.out(cat.squeeze(1)), -1), h, attn
enc, dec = det(Encoder()), det(LuongDecoder(), 1)
src, tgt = ints(10, 2, 5), ints(10, 2, 4, seed=5)
opt = torch.optim.Adam(list(enc.parameters()) + list(dec.parameters()), lr=0.01)
teacher = [True, False, True]
L = []
for _ in range(3):
    e, h = enc(src)
    y = torch.zeros(2, dtype=torch.long)
    loss = 0
    for t in range(4):
        lp, h, attn = dec(y, h, e)
        loss = loss + F.nll_loss(lp, tgt[:, t])
        y = tgt[:, t] if teacher[t % 3] else lp.argmax(-1).detach()
    opt.zero_grad(); (loss / 4).backward()
    nn.utils.clip_grad_norm_(list(enc.parameters()) + list(dec.parameters()), 1.0)
    opt.step(); L.append(loss.item() / 4)
report(L=L, attn=attn[0, 0], y=y)
