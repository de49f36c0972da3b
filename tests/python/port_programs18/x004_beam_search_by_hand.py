import torch
import torch.nn as nn


class Dec(nn.Module):
    def __init__(self, V=7, d=6):
        super().__init__()
        self.emb = nn.Embedding(V, d)
        self.rnn = nn.GRUCell(d, d)
        self.out = nn.Linear(d, V)

    def step(self, tok, h):
        h = self.rnn(self.emb(tok), h)
        return self.out(h).log_softmax(-1), h


m = det(Dec())
beam, V, eos = 3, 7, 6
h = torch.zeros(1, 6).repeat(beam, 1)
tok = torch.zeros(beam, dtype=torch.long)
scores = torch.tensor([0.0] + [-1e9] * (beam - 1))
hist = torch.zeros(beam, 0, dtype=torch.long)
finished = []
for t in range(4):
    lp, h = m.step(tok, h)
    cand = (scores[:, None] + lp).view(-1)
    top, idx = cand.topk(beam)
    src = torch.div(idx, V, rounding_mode="floor")
    tok = idx % V
    h = h.index_select(0, src)
    hist = torch.cat([hist[src], tok[:, None]], 1)
    scores = top
    for b in range(beam):
        if tok[b].item() == eos:
            finished.append((hist[b].tolist(), round(scores[b].item() / (t + 1) ** 0.6, 4)))
best = max(finished + [(hist[0].tolist(), scores[0].item() / 4 ** 0.6)], key=lambda x: x[1])
report(hist=hist, scores=scores, best=best[0], n_finished=len(finished))
