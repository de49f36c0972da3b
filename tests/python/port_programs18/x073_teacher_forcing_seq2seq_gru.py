import torch
import torch.nn as nn


class Seq2Seq(nn.Module):
    def __init__(self, V=8, d=6):
        super().__init__()
        self.emb = nn.Embedding(V, d)
        self.enc = nn.GRU(d, d, batch_first=True)
        self.dec = nn.GRU(d, d, batch_first=True)
        self.out = nn.Linear(d, V)

    def forward(self, src, tgt_in):
        _, h = self.enc(self.emb(src))
        o, _ = self.dec(self.emb(tgt_in), h)
        return self.out(o)

    @torch.no_grad()
    def greedy(self, src, bos, n):
        _, h = self.enc(self.emb(src))
        tok = torch.full((src.size(0), 1), bos, dtype=torch.long)
        outs = []
        for _ in range(n):
            o, h = self.dec(self.emb(tok), h)
            tok = self.out(o).argmax(-1)
            outs.append(tok)
        return torch.cat(outs, 1)


m = det(Seq2Seq(), scale=0.3)
src = torch.tensor([[1, 2, 3], [4, 5, 6]])
tgt = torch.tensor([[0, 3, 2, 1], [0, 6, 5, 4]])
opt = torch.optim.Adam(m.parameters(), lr=0.05)
losses = []
for _ in range(4):
    logits = m(src, tgt[:, :-1])
    loss = nn.functional.cross_entropy(logits.reshape(-1, 8), tgt[:, 1:].reshape(-1))
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_value_(m.parameters(), 0.5)
    opt.step()
    losses.append(round(loss.item(), 5))
report(losses=losses, greedy=m.greedy(src, 0, 3))
